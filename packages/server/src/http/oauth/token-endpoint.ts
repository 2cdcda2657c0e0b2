import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { clientForm, oauthParams } from '../form.js';
import { noStore } from '../no-store.js';
import { ORG_CACHE_TTL_MS, orgOf } from '../org-routing.js';
import { GRANTS } from './grants/registry.js';

/**
 * POST /oauth/token: named steps, in order — the client's form, one grant_type, the grant's
 * parameters (no repeats, nothing unknown), then the grant's own handler. Every answer is no-store.
 */
export function tokenEndpoint(app: FastifyInstance, deps: Deps) {
  app.post('/oauth/token', { onSend: noStore }, async (request) => {
    const form = clientForm(request);
    const grantTypes = form.get('grant_type');
    if (!grantTypes || grantTypes[0] === '') return fail('invalid_request', 'grant_type is required');
    if (grantTypes.length > 1) return fail('invalid_request', 'parameter given more than once: grant_type');
    const grant =
      GRANTS.get(grantTypes[0] as string) ??
      fail('unsupported_grant_type', 'this grant type is not supported');
    const params = oauthParams(form, ['grant_type', ...grant.parameters]);
    // Grants here use only the org's identity (id, issuer), which never changes: a recent lookup will do.
    const org = await orgOf(deps, request, ORG_CACHE_TTL_MS);
    return grant.handle({ deps, org, request, params });
  });
}
