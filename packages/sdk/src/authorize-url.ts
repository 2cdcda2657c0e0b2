import { optionalText, record, text } from './checks.js';
import { type Target, urlOf } from './http.js';

/**
 * What an authorization request needs besides the SDK's own `clientId`.
 *
 * @example
 * ```ts
 * const params: AuthorizationUrlParams = {
 *   redirectUri: 'https://app.example.com/callback',
 *   codeChallenge: pkce.codeChallenge,
 *   state,
 * };
 * ```
 */
export interface AuthorizationUrlParams {
  /** Must be one of the client's registered redirect URIs; `token.authorizationCode` repeats it. */
  redirectUri: string;
  /** From {@link createPkce}; the method is always S256. */
  codeChallenge: string;
  /** From {@link createState}; the callback must get the same value back. */
  state: string;
  /** Space-separated scopes. */
  scope?: string;
  /** RFC 8707 resource indicator. */
  resource?: string;
  /**
   * RFC 9449 §10 `dpop_jkt`: the thumbprint of the DPoP key (`await sdk.dpop.thumbprint()`); the
   * authorization code is then redeemed only with a proof of that key.
   */
  dpopJkt?: string;
}

/**
 * The address to send the browser to for sign-in: `${api}/oauth/authorize` with `response_type=code`,
 * the client id, the redirect URI, the S256 PKCE challenge and `state` (plus `host` under a
 * `hostOverride`). The browser signs in there and comes back to `redirectUri` with `code` and `state`.
 *
 * @example
 * ```ts
 * location.assign(authorizationUrl(target, 'cli_web', { redirectUri, codeChallenge, state }));
 * ```
 */
export function authorizationUrl(target: Target, clientId: string, params: AuthorizationUrlParams): string {
  const where = 'authorizationUrl';
  const p = record(where, 'params', params);
  const redirectUri = text(where, 'redirectUri', p.redirectUri);
  const codeChallenge = text(where, 'codeChallenge', p.codeChallenge);
  const state = text(where, 'state', p.state);
  const scope = optionalText(where, 'scope', p.scope);
  const resource = optionalText(where, 'resource', p.resource);
  const dpopJkt = optionalText(where, 'dpopJkt', p.dpopJkt);
  const url = new URL(urlOf(target, '/oauth/authorize'));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
    state,
  });
  if (scope !== undefined) query.set('scope', scope);
  if (resource !== undefined) query.set('resource', resource);
  if (dpopJkt !== undefined) query.set('dpop_jkt', dpopJkt);
  // `host` stays last, after the OAuth parameters, as urlOf put it there.
  for (const [name, value] of url.searchParams) query.set(name, value);
  url.search = query.toString();
  return url.href;
}
