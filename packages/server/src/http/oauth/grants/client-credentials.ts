import { machineAudience, requestedResources } from '../../../domain/resources/index.js';
import {
  authenticateMachineClient,
  issueMachineToken,
  requireGrant,
  serviceAccountScope,
} from '../../../domain/tokens/index.js';
import type { Grant } from './types.js';
import { dpopKey } from './user-grant-steps.js';

/**
 * `client_credentials`: machine tokens for confidential clients (secret or private_key_jwt).
 * With `resource` (a registered resource of the org, else `invalid_target`) and optionally
 * `scope`, a token for that resource with the client's permitted scopes (DESIGN §15). A service
 * account's (console issuer, DESIGN §16) carries its management `scope`, which `scope` may narrow.
 * Otherwise the spec's machine token, unchanged (`scope` is then ignored, as before).
 */
export const clientCredentials: Grant = {
  parameters: ['resource', 'scope'],
  async handle(ctx) {
    const { deps, org, client: presented, params } = ctx;
    // One query, or none on a cache hit: the client, its credentials and the org's active key id.
    // The PostgreSQL cache is emptied by the NOTIFY a change sends (docs/token-endpoint.md).
    const { client, activeKid } = await authenticateMachineClient(deps, org, presented);
    requireGrant(client, 'client_credentials');
    const jkt = await dpopKey(ctx, client);
    const [resource] =
      params.resource === undefined || org.isConsole
        ? []
        : await requestedResources(deps, org, [params.resource]);
    const audience = resource ? await machineAudience(deps.store, client, resource, params.scope) : null;
    const accountScope = await serviceAccountScope(deps, org, client, params.scope);
    const token = await issueMachineToken(deps, org, client, activeKid, audience, accountScope, jkt);
    return {
      access_token: token.accessToken,
      token_type: jkt === null ? 'Bearer' : 'DPoP',
      expires_in: token.expiresIn,
      ...(token.scope === undefined ? {} : { scope: token.scope }),
    };
  },
};
