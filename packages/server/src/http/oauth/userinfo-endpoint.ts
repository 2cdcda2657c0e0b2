import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../domain/errors.js';
import { signedUserInfo, userInfo } from '../../domain/tokens/index.js';
import { authenticateBearer, REALM } from '../bearer.js';
import { apiError } from '../management/responses.js';
import { noStore } from '../no-store.js';
import { UserInfo } from '../openapi/described-schemas.js';
import { noOrgAtHost, oauthError } from '../openapi/oauth-responses.js';
import { operation, type Serving } from '../served-operation.js';
import { userinfoClient, userinfoToken } from './userinfo-token.js';

/** RFC 6750 §3.1: a valid token that lacks the scope; same realm as authenticateBearer. */
const INSUFFICIENT_SCOPE = `Bearer realm="${REALM}", error="insufficient_scope", scope="openid"`;

/**
 * GET and POST /oauth/userinfo (OIDC Core §5.3), as named steps: the bearer token (user or
 * console; any failure is authenticateBearer's 401 with `error="invalid_token"`), the `openid`
 * scope of its session (else 403 `insufficient_scope`), then the claims its scopes and its
 * `claims` parameter release: JSON, or a signed JWT for a client that registered
 * `userinfo_signed_response_alg`. The token travels in the Authorization header or, on POST, in a
 * form body (never both, never the query: userinfo-token.ts).
 */
const serveUserinfo = ({ deps }: Serving) => ({
  onSend: [noStore],
  cors: userinfoClient,
  handler: async (request: FastifyRequest, reply: FastifyReply) => {
    const { org, access } = await authenticateBearer(
      deps,
      request,
      ['user', 'console'],
      userinfoToken(request),
    );
    const claims = await userInfo(deps, access);
    if (claims === null) {
      return fail('userinfo.openid_scope.missing', 'the access token was not granted the openid scope', {
        'www-authenticate': INSUFFICIENT_SCOPE,
      });
    }
    // The client registered userinfo_signed_response_alg: a JWT instead (OIDC Core §5.3.2).
    const signed = await signedUserInfo(deps, org, access, claims);
    if (signed !== null) return reply.type('application/jwt').send(signed);
    return claims;
  },
});

const userinfo = (method: 'get' | 'post') =>
  operation(
    {
      method,
      path: '/oauth/userinfo',
      operationId: `userinfo${method === 'get' ? 'Get' : 'Post'}`,
      summary: 'OpenID Connect userinfo (OIDC Core §5.3)',
      tag: 'oauth',
      hosts: 'every',
      auth: 'user-or-console',
      ...(method === 'post'
        ? {
            description:
              'The access token in the Authorization header, or in this form body as `access_token` (RFC 6750 §2.2); both at once is `400 invalid_request`.',
          }
        : {}),
      responses: {
        200: {
          description:
            '`sub` and the claims the session’s scopes and `claims` parameter release; as a JWT ' +
            '(`application/jwt`, RS256, with `iss` and `aud`) when the client registered ' +
            '`userinfo_signed_response_alg`',
          schema: UserInfo,
          alsoAs: ['application/jwt'],
        },
        ...(method === 'post'
          ? { 400: oauthError('`invalid_request`: the token both in the header and in the body, or twice') }
          : {}),
        // The bearer refusals are the API's (`error_detail`), as on every route a bearer token opens.
        401: apiError('`unauthorized`: no valid token (`WWW-Authenticate: Bearer … error="invalid_token"`)'),
        403: apiError('`forbidden`: the session was not granted `openid` (`insufficient_scope`)'),
        404: noOrgAtHost,
      },
    },
    serveUserinfo,
  );

export const userinfoGet = userinfo('get');
export const userinfoPost = userinfo('post');
