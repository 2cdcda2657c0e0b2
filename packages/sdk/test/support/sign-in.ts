import assert from 'node:assert/strict';
import { createPkce, createState, type Sdk } from '@tessera/sdk';
import { BrowserSession } from './browser-session.js';

/** The redirect URI of the test apps; the browser stops there and hands the query over. */
export const REDIRECT_URI = 'http://localhost:3000/callback';

/**
 * The whole sign-in as an app does it with the SDK alone — PKCE pair, state, authorization URL — and as a
 * browser does it on Tessera's hosted pages: follow to the login form, post it with its CSRF field, allow
 * on the consent form if asked, and land on the redirect URI with the code.
 */
export async function signIn(sdk: Sdk, who: { email: string; password: string }, clientSecret?: string) {
  const { codeVerifier, codeChallenge } = await createPkce();
  const state = createState();
  const browser = new BrowserSession(REDIRECT_URI);
  let step = await browser.navigate(
    sdk.authorizationUrl({ redirectUri: REDIRECT_URI, codeChallenge, state }),
  );
  assert.ok('page' in step, 'the authorization request leads to the login page');
  const login = BrowserSession.formOf(step.page, step.url);
  assert.ok(login.fields.get('csrf'), 'the login form carries a CSRF field');
  login.fields.set('email', who.email);
  login.fields.set('password', who.password);
  step = await browser.navigate(login.action, new URLSearchParams([...login.fields]));
  let consented = false;
  if ('page' in step) {
    assert.match(step.page, /Allow access\?/);
    const consent = BrowserSession.formOf(step.page, step.url);
    step = await browser.navigate(
      consent.action,
      new URLSearchParams([...consent.fields, ['decision', 'allow']]),
    );
    consented = true;
  }
  assert.ok('callback' in step, 'the browser is sent back to the redirect URI');
  assert.equal(step.callback.get('state'), state);
  const code = step.callback.get('code');
  assert.ok(code);
  const tokens = await sdk.token.authorizationCode({
    code,
    redirectUri: REDIRECT_URI,
    codeVerifier,
    ...(clientSecret === undefined ? {} : { clientSecret }),
  });
  return { tokens, code, consented, visited: browser.visited };
}
