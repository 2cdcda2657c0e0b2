import { introspectToken } from '../../domain/tokens/index.js';
import { Introspection, IntrospectRequest } from '../openapi/described-schemas.js';
import { oauthError } from '../openapi/oauth-responses.js';
import { clientFormOperation } from './form-endpoint.js';
import { tokenRequest } from './token-request.js';

/**
 * POST /oauth/introspect (RFC 7662): for the org's confidential clients, authenticated by any
 * method but `none` (a public client, or none at all, is 401 invalid_client). The answer is
 * `{"active": false}` for anything not a live token of this org.
 */
export const introspect = clientFormOperation(
  {
    path: '/oauth/introspect',
    operationId: 'introspect',
    summary: 'Token introspection (RFC 7662) for the org’s confidential clients',
    form: IntrospectRequest,
    responses: {
      200: { description: '`{"active": true, …claims}` or `{"active": false}`', schema: Introspection },
      400: oauthError('a malformed request'),
      401: oauthError('`invalid_client`: no or failed client authentication, or a public client'),
    },
  },
  ({ deps }) => ({
    handler: async (request) => {
      const { org, client, token } = await tokenRequest(deps, request, '/oauth/introspect', true);
      return introspectToken(deps, org, client, token);
    },
  }),
);
