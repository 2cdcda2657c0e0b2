import {
  createTrustedApp,
  deleteTrustedApp,
  getTrustedApp,
  listTrustedApps,
  trustedAppSnapshot,
  updateTrustedApp,
} from '../domain/enterprise-access/index.js';
import { SYSTEM } from '../domain/types.js';
import { required, UsageError } from './args.js';
import { deletion, inOrg, listing, showing } from './in-org.js';
import type { Commands } from './usage.js';

type TrustedAppCommand =
  | 'trusted-app list'
  | 'trusted-app create'
  | 'trusted-app show'
  | 'trusted-app update'
  | 'trusted-app delete';

const listOf = (values: string[] | undefined) => values?.filter((v) => v !== '');

/**
 * Trusted apps (Enterprise-Managed Authorization, DESIGN §20), through the domain functions the API uses;
 * each shown as its audit entries hold it (camelCase, like every CLI answer).
 */
export const TRUSTED_APP_COMMANDS: Commands<TrustedAppCommand> = {
  'trusted-app list': listing(listTrustedApps, trustedAppSnapshot),
  'trusted-app create'(f) {
    const slug = required(f.org, 'org');
    const input = {
      name: required(f.name, 'name'),
      audience: required(f.audience, 'audience'),
      targetClientId: required(f['target-client-id'], 'target-client-id'),
      clientIds: listOf(f.client) ?? [],
      resources: listOf(f.resource),
      scopes: listOf(f.scope),
    };
    if (input.clientIds.length === 0) throw new UsageError('give at least one --client');
    return inOrg(slug, async (deps, org) =>
      trustedAppSnapshot(await createTrustedApp(deps, org, input, SYSTEM)),
    );
  },
  'trusted-app show': showing(getTrustedApp, trustedAppSnapshot),
  'trusted-app update'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    const changes = {
      name: f.name,
      audience: f.audience,
      targetClientId: f['target-client-id'],
      clientIds: listOf(f.client),
      resources: listOf(f.resource),
      scopes: listOf(f.scope),
    };
    if (Object.values(changes).every((v) => v === undefined))
      throw new UsageError('give at least one change');
    return inOrg(slug, async (deps, org) =>
      trustedAppSnapshot(await updateTrustedApp(deps, org, id, changes, SYSTEM)),
    );
  },
  'trusted-app delete': deletion(deleteTrustedApp),
};
