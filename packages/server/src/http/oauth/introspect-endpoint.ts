import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { issuerOf } from '../../domain/issuers.js';
import { authenticateClient, introspectToken } from '../../domain/tokens/index.js';
import { clientForm, oauthParams } from '../form.js';
import { noStore } from '../no-store.js';
import { orgOf } from '../org-routing.js';
import { CLIENT_AUTH_PARAMETERS, presentedClient } from './client-authentication.js';

/**
 * POST /oauth/introspect (RFC 7662): for the org's confidential clients, authenticated by any
 * method but `none` (a public client, or none at all, is 401 invalid_client). The answer is
 * `{"active": false}` for anything not a live token of this org.
 */
export function introspectEndpoint(app: FastifyInstance, deps: Deps) {
  app.post('/oauth/introspect', { onSend: noStore }, async (request) => {
    const params = oauthParams(clientForm(request), ['token', 'token_type_hint', ...CLIENT_AUTH_PARAMETERS]);
    const org = await orgOf(deps, request);
    const presented = presentedClient(request, params, issuerOf(deps.config, org));
    if (presented.method === 'none') fail('invalid_client', 'client authentication failed');
    const client = await authenticateClient(deps, org, presented, '/oauth/introspect');
    const token = params.token ?? fail('invalid_request', 'token is required');
    return introspectToken(deps, org, client, token);
  });
}
