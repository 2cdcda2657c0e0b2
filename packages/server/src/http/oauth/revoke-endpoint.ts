import { revokeToken } from '../../domain/tokens/index.js';
import { formClient } from '../cors.js';
import { RevokeAnswer, RevokeRequest } from '../openapi/described-schemas.js';
import { oauthError } from '../openapi/oauth-responses.js';
import { clientFormOperation } from './form-endpoint.js';
import { tokenRequest } from './token-request.js';

/**
 * POST /oauth/revoke (RFC 7009): authenticate the client, then end the session of the token if
 * it is this client's. The answer is 200 whatever the token was (§2.2): unknown, already
 * revoked, or another client's — which is left alone. `token_type_hint` is accepted and not
 * needed: both kinds are looked up.
 *
 * Its body is an empty JSON object (`{}`, application/json). RFC 7009 §2.2 says only that "the
 * content of the response body is ignored by the client"; clients that read every answer as JSON
 * (simple-oauth2's `revokeAll()`, through wreck's strict JSON mode) failed on an empty body.
 */
export const revoke = clientFormOperation(
  {
    path: '/oauth/revoke',
    operationId: 'revoke',
    summary: 'Token revocation (RFC 7009): ends the token’s session',
    form: RevokeRequest,
    responses: {
      200: {
        description: 'revoked, or nothing to revoke: an empty JSON object',
        schema: RevokeAnswer,
      },
      400: oauthError('a malformed request'),
      401: oauthError('`invalid_client`'),
    },
  },
  ({ deps }) => ({
    cors: formClient,
    handler: async (request, reply) => {
      const { org, client, token } = await tokenRequest(deps, request, '/oauth/revoke');
      await revokeToken(deps, org, client, token);
      return reply.code(200).send({});
    },
  }),
);
