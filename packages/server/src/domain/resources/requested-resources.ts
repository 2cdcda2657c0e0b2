import { findApiResourcesByIdentifier } from '../../storage/repos/api-resources.js';
import { fail } from '../errors.js';
import type { ApiResource, Org } from '../types.js';
import type { ResourcesDeps } from './deps.js';

/** RFC 8707 §2: an absolute URI without a fragment; anything else is `invalid_target`. */
function checkIndicator(value: string): void {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    fail('resource_indicator.not_absolute', 'resource must be an absolute URI');
  }
  if (url?.hash || value.includes('#'))
    fail('resource_indicator.fragment', 'resource must not have a fragment');
}

/**
 * The `resource` values of an authorization or token request (RFC 8707 §2), each a registered
 * resource of the org (DESIGN §15), in the order given, duplicates dropped; anything else is
 * `invalid_target`. The console issuer has no resources of its own: there they are checked for
 * shape only and none is returned (its tokens are for the management API).
 */
export async function requestedResources(
  deps: ResourcesDeps,
  org: Org,
  values: readonly string[],
): Promise<ApiResource[]> {
  const wanted = [...new Set(values)];
  for (const value of wanted) checkIndicator(value);
  if (org.isConsole || wanted.length === 0) return [];
  const found = await findApiResourcesByIdentifier(deps.store, org.id, wanted);
  return wanted.map(
    (identifier) =>
      found.find((r) => r.identifier === identifier) ??
      fail('resource_indicator.unknown', `${identifier} is not a resource of this organization`),
  );
}
