import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import type { Client, Org } from '../../domain/types.js';
import { clientForm, oauthParams } from '../form.js';
import { authenticatedClient, CLIENT_AUTH_PARAMETERS } from './client-authentication.js';

/**
 * The form of a request about one token (RFC 7009 revocation, RFC 7662 introspection): `token`
 * and `token_type_hint` beside the client's authentication, which is checked first (a failure is
 * 401 invalid_client), then `token` is required. `confidentialOnly`: `none` is refused before any
 * lookup, as introspection answers only the org's confidential clients.
 */
export async function tokenRequest(
  deps: Deps,
  request: FastifyRequest,
  endpoint: '/oauth/revoke' | '/oauth/introspect',
  confidentialOnly = false,
): Promise<{ org: Org; client: Client; token: string }> {
  const params = oauthParams(clientForm(request), ['token', 'token_type_hint', ...CLIENT_AUTH_PARAMETERS]);
  const { org, client } = await authenticatedClient(deps, request, params, endpoint, confidentialOnly);
  const token = params.token ?? fail('token.token.missing', 'token is required');
  return { org, client, token };
}
