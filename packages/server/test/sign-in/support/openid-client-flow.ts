import * as oidc from 'openid-client';
import { FormBrowser, signInThroughPages } from './browser.js';
import { CALLBACK, PASSWORD } from './fixtures.js';

/**
 * A relying party's sign-in with openid-client as its README writes one: code + PKCE (S256), `state`
 * and `nonce`, the hosted pages filled in `browser`, the callback checked by the library (state, `iss`,
 * nonce, an ID token expected). The nonce is returned for tests that look at the ID token's claims.
 */
export async function openidClientSignIn(
  config: oidc.Configuration,
  options: { scope: string; email?: string; browser?: FormBrowser },
) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: options.scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const callback = await signInThroughPages(options.browser ?? new FormBrowser(), url.href, {
    email: options.email ?? 'ada@acme.test',
    password: PASSWORD,
  });
  const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  return { tokens, nonce };
}
