import type { FastifyInstance } from 'fastify';
import { authenticateClient } from '../../domain/tokens/client-auth.js';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { revokeToken } from '../../domain/tokens/revocation.js';
import { clientForm, oauthParams } from '../form.js';
import { noStore } from '../no-store.js';
import { orgOf } from '../org-routing.js';

/**
 * POST /oauth/revoke (RFC 7009): authenticate the client, then end the session of the token if
 * it is this client's. The answer is 200 whatever the token was (§2.2): unknown, already
 * revoked, or another client's — which is left alone. `token_type_hint` is accepted and not
 * needed: both kinds are looked up.
 */
export function revokeEndpoint(app: FastifyInstance, deps: Deps) {
  app.post('/oauth/revoke', { onSend: noStore }, async (request, reply) => {
    const params = oauthParams(clientForm(request), [
      'token',
      'token_type_hint',
      'client_id',
      'client_secret',
    ]);
    const org = await orgOf(deps, request);
    const clientId = params.client_id ?? fail('invalid_request', 'client_id is required');
    const client = await authenticateClient(deps.db, org.id, clientId, params.client_secret);
    const token = params.token ?? fail('invalid_request', 'token is required');
    await revokeToken(deps, org, client, token);
    return reply.code(200).send();
  });
}
