import { fail } from '../../domain/errors.js';
import { issuerOf } from '../../domain/issuers.js';
import { formClient } from '../cors.js';
import { clientForm, oauthParams } from '../form.js';
import { TokenRequest, TokenResponse } from '../openapi/described-schemas.js';
import { oauthError } from '../openapi/oauth-responses.js';
import { ORG_CACHE_TTL_MS, orgOf } from '../org-routing.js';
import { CLIENT_AUTH_PARAMETERS, presentedClient } from './client-authentication.js';
import { clientFormOperation } from './form-endpoint.js';
import { GRANTS } from './grants/registry.js';

/**
 * POST /oauth/token: named steps, in order — the form, one grant_type, the grant's parameters
 * (no repeats; others ignored, RFC 6749 §3.2), the client's one authentication method, then the
 * grant's own handler. Every answer is no-store, and readable by a page of an allowed origin of the
 * client the request names (http/cors.ts).
 */
export const token = clientFormOperation(
  {
    path: '/oauth/token',
    operationId: 'token',
    summary:
      'Token endpoint: every grant type (client_secret_basic, client_secret_post, private_key_jwt, none)',
    description:
      'A `DPoP` header (RFC 9449: a proof JWT, `htu` this org’s token endpoint) binds the tokens to ' +
      'the proof’s key: `token_type` DPoP, `cnf.jkt` in the access token, and a public client’s refresh ' +
      'token usable only with a proof of the same key. A client that asks for server nonces is answered ' +
      '`use_dpop_nonce` with the `DPoP-Nonce` header to put in its next proof.',
    form: TokenRequest,
    responses: {
      200: { description: 'a TokenSet', schema: TokenResponse },
      400: oauthError(
        'RFC 6749 §5.2 errors; RFC 9449’s `invalid_dpop_proof`, and `use_dpop_nonce` (with a `DPoP-Nonce` header)',
      ),
      401: oauthError('`invalid_client`'),
    },
  },
  ({ deps }) => ({
    cors: formClient,
    handler: async (request) => {
      const form = clientForm(request);
      const grantTypes = form.get('grant_type');
      if (!grantTypes || grantTypes[0] === '')
        return fail('token.grant_type.missing', 'grant_type is required');
      if (grantTypes.length > 1)
        return fail('token.grant_type.repeated', 'parameter given more than once: grant_type');
      const grant =
        GRANTS.get(grantTypes[0] as string) ??
        fail('token.grant_type.unsupported', 'this grant type is not supported');
      const params = oauthParams(form, ['grant_type', ...grant.parameters, ...CLIENT_AUTH_PARAMETERS]);
      // Grants here use only the org's identity (id, issuer), which never changes: a recent lookup will do.
      const org = await orgOf(deps, request, ORG_CACHE_TTL_MS);
      const client = presentedClient(request, params, issuerOf(deps.config, org));
      const dpop = request.headers.dpop;
      return grant.handle({
        deps,
        org,
        request,
        params,
        client,
        dpop: typeof dpop === 'string' ? dpop : null,
      });
    },
  }),
);
