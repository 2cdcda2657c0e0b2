import { introspectToken } from '../../domain/tokens/index.js';
import { noStore } from '../no-store.js';
import { Introspection, IntrospectRequest } from '../openapi/described-schemas.js';
import { FORM, noOrgAtHost, oauthError } from '../openapi/oauth-responses.js';
import { operation } from '../served-operation.js';
import { tokenRequest } from './token-request.js';

/**
 * POST /oauth/introspect (RFC 7662): for the org's confidential clients, authenticated by any
 * method but `none` (a public client, or none at all, is 401 invalid_client). The answer is
 * `{"active": false}` for anything not a live token of this org.
 */
export const introspect = operation(
  {
    method: 'post',
    path: '/oauth/introspect',
    operationId: 'introspect',
    summary: 'Token introspection (RFC 7662) for the org’s confidential clients',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: FORM, schema: IntrospectRequest },
    responses: {
      200: { description: '`{"active": true, …claims}` or `{"active": false}`', schema: Introspection },
      400: oauthError('a malformed request'),
      401: oauthError('`invalid_client`: no or failed client authentication, or a public client'),
      404: noOrgAtHost,
    },
  },
  ({ deps }) => ({
    onSend: [noStore],
    handler: async (request) => {
      const { org, client, token } = await tokenRequest(deps, request, '/oauth/introspect', true);
      return introspectToken(deps, org, client, token);
    },
  }),
);
