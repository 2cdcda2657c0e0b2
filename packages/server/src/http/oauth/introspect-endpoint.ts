import { fail } from '../../domain/errors.js';
import { issuerOf } from '../../domain/issuers.js';
import { authenticateClient, introspectToken } from '../../domain/tokens/index.js';
import { clientForm, oauthParams } from '../form.js';
import { noStore } from '../no-store.js';
import { Introspection, IntrospectRequest } from '../openapi/described-schemas.js';
import { FORM, oauthError } from '../openapi/oauth-responses.js';
import { orgOf } from '../org-routing.js';
import { operation } from '../served-operation.js';
import { CLIENT_AUTH_PARAMETERS, presentedClient } from './client-authentication.js';

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
    },
  },
  ({ deps }) => ({
    onSend: [noStore],
    handler: async (request) => {
      const params = oauthParams(clientForm(request), [
        'token',
        'token_type_hint',
        ...CLIENT_AUTH_PARAMETERS,
      ]);
      const org = await orgOf(deps, request);
      const presented = presentedClient(request, params, issuerOf(deps.config, org));
      if (presented.method === 'none') fail('invalid_client', 'client authentication failed');
      const client = await authenticateClient(deps, org, presented, '/oauth/introspect');
      const token = params.token ?? fail('invalid_request', 'token is required');
      return introspectToken(deps, org, client, token);
    },
  }),
);
