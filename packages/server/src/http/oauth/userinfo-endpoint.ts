import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { userInfo } from '../../domain/tokens/index.js';
import { authenticateBearer, REALM } from '../bearer.js';
import { bearerClient, clientCors } from '../cors.js';
import { noStore } from '../no-store.js';

/** RFC 6750 §3.1: a valid token that lacks the scope; same realm as authenticateBearer. */
const INSUFFICIENT_SCOPE = `Bearer realm="${REALM}", error="insufficient_scope", scope="openid"`;

/**
 * GET and POST /oauth/userinfo (OIDC Core §5.3), as named steps: the bearer token (user or
 * console; any failure is authenticateBearer's 401 with `error="invalid_token"`), the `openid`
 * scope of its session (else 403 `insufficient_scope`), then the claims its scopes permit.
 * The token travels only in the Authorization header.
 */
export function userinfoEndpoint(app: FastifyInstance, deps: Deps) {
  const handler = async (request: FastifyRequest) => {
    const { access } = await authenticateBearer(deps, request, ['user', 'console']);
    const claims = await userInfo(deps, access);
    if (claims === null) {
      return fail('forbidden', 'the access token was not granted the openid scope', {
        'www-authenticate': INSUFFICIENT_SCOPE,
      });
    }
    return claims;
  };
  const cors = clientCors(app, deps, '/oauth/userinfo', 'GET, POST', bearerClient);
  app.get('/oauth/userinfo', { onSend: [noStore, cors] }, handler);
  app.post('/oauth/userinfo', { onSend: [noStore, cors] }, handler);
}
