import { newSecret, sha256 } from '../../../crypto/random.js';
import { pushedAuthorizationRequests } from '../../../storage/repos/one-time-keys.js';
import { clock } from '../../clock.js';
import { fail } from '../../errors.js';
import { purgeAtMostEveryMinute } from '../../purge-schedule.js';
import type { Client, Org } from '../../types.js';
import type { SignInDeps } from '../deps.js';
import type { AuthorizeQuery } from './parameters.js';

/**
 * Pushed authorization requests (RFC 9126, DESIGN §20): a client posts its authorization request to
 * /oauth/par, authenticated as at the token endpoint, and sends the person to /oauth/authorize with
 * `client_id` and the `request_uri` it got back. The request_uri is single use, lives 60 seconds,
 * and opens the request only for the client that pushed it, at the org it was pushed to.
 */

/** RFC 9126 §2.2: the URN prefix of every request_uri this service hands out. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** RFC 9126 §2.2 leaves it to the server; DESIGN §20 fixes 60 seconds. */
export const PUSHED_REQUEST_TTL_S = 60;

/** Whether `requestUri` is one /oauth/par could have handed out (anything else is by reference: not supported). */
export const isPushedRequestUri = (requestUri: string | undefined): requestUri is string =>
  requestUri?.startsWith(REQUEST_URI_PREFIX) === true;

/**
 * Whether `client` must push its authorization requests (RFC 9126 §4: "either globally or on a
 * per-client basis"): the org's setting, or the client's own.
 */
export const mustPush = (org: Org, client: Client): boolean =>
  org.requirePushedRequests || client.requirePushedRequests === true;

/**
 * Keeps a checked request (`query`, a request object's values already merged in) for 60 seconds and
 * returns its request_uri. Only the SHA-256 of the random part is stored: a database read does not
 * yield a usable request_uri.
 */
export async function keepPushedRequest(
  deps: SignInDeps,
  org: Org,
  client: Client,
  query: AuthorizeQuery,
): Promise<{ requestUri: string; expiresIn: number }> {
  const now = clock.now();
  const key = newSecret('');
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query.params)) if (value !== undefined) params[name] = value;
  await purgeAtMostEveryMinute(deps.store, 'pushed_authorization_requests', now, (db) =>
    pushedAuthorizationRequests.purge(db, now),
  );
  await pushedAuthorizationRequests.insert(deps.store, {
    keyHash: sha256(key),
    orgId: org.id,
    clientId: client.id,
    params,
    resources: [...query.resources],
    createdAt: now,
    expiresAt: now + PUSHED_REQUEST_TTL_S * 1000,
    usedAt: null,
  });
  return { requestUri: `${REQUEST_URI_PREFIX}${key}`, expiresIn: PUSHED_REQUEST_TTL_S };
}

/**
 * The pushed request `requestUri` names, taken once (RFC 9126 §4): its parameters are the
 * request, the query's others are ignored (RFC 9101 §6.3). Unknown, expired, already used or
 * another org's: `invalid_request_uri` (RFC 9101 §7). Pushed by another client: the same, and it is
 * used up all the same (whoever holds it with the wrong client_id holds a leaked one).
 */
export async function takePushedRequest(
  deps: SignInDeps,
  org: Org,
  client: Client,
  requestUri: string,
): Promise<AuthorizeQuery> {
  const key = requestUri.slice(REQUEST_URI_PREFIX.length);
  const pushed =
    (await pushedAuthorizationRequests.consume(deps.store, org.id, sha256(key), clock.now())) ??
    fail('authorize.request_uri.invalid', 'request_uri is unknown, expired or already used');
  if (pushed.clientId !== client.id)
    fail('authorize.request_uri.other_client', 'request_uri was pushed by another application');
  return { params: pushed.params, repeated: [], resources: pushed.resources };
}
