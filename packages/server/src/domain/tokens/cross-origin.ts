import { unverifiedClaims } from '../../crypto/verify-jwt.js';
import { orgClientOrigins } from '../../storage/repos/clients.js';
import { allowedOriginsOf } from '../directory/allowed-origins.js';
import type { Org } from '../types.js';
import { clientNamed } from './client-named.js';
import type { TokensDeps } from './deps.js';

/**
 * Which browser origins may read the token, revocation and userinfo endpoints' answers (CORS,
 * DESIGN §14). The rule: the origin must be an allowed origin of the client the request names —
 * the client_id of the form or of Basic credentials, or the client of a bearer token. A preflight
 * names no client (it has no body and no credentials), so it passes for an origin that is an
 * allowed origin of some client of the org; the answer to the request itself is still checked
 * against the client it names. A refusal is no answer at all: the browser keeps the response from
 * the page.
 */

/** What a request says about its client: an id, or a bearer token whose client it is. */
export type NamedClient = { clientId: string } | { accessToken: string };

/** Whether `origin` may read the answer to a request naming `named` on `org`. */
export async function originAllowedFor(
  deps: Pick<TokensDeps, 'store' | 'clientMetadata'>,
  org: Org,
  named: NamedClient,
  origin: string,
): Promise<boolean> {
  const clientId = 'clientId' in named ? named.clientId : tokenClientId(named.accessToken);
  if (clientId === null) return false;
  // A metadata-document client's allowed origins are those of its document's redirect URIs (DESIGN §13).
  const client = await clientNamed(deps, org, clientId);
  return client !== null && allowedOriginsOf(client).includes(origin);
}

/** Whether `origin` is an allowed origin of any client of the org: the preflight's rule. */
export async function originOfSomeClient(
  deps: Pick<TokensDeps, 'store'>,
  org: Org,
  origin: string,
): Promise<boolean> {
  const clients = await orgClientOrigins(deps.store, org.id);
  return clients.some((c) => allowedOriginsOf(c).includes(origin));
}

/**
 * The client a bearer token was issued to (RFC 9068 `client_id`, else `azp`, else its audience),
 * read without verifying it: the endpoint verifies the token, and an unverified one gets an error
 * answer, which is all a page of that client's origin could then read. Null for anything else.
 */
function tokenClientId(token: string): string | null {
  const claims = unverifiedClaims(token);
  if (claims === null) return null;
  const named = claims.client_id ?? claims.azp ?? (Array.isArray(claims.aud) ? claims.aud[0] : claims.aud);
  return typeof named === 'string' && named !== '' ? named : null;
}
