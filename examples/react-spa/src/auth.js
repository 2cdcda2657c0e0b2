// Sign-in with @tessera/sdk: the authorization code flow with PKCE and a state, for a public client (no
// secret in a browser). Tokens stay in memory, never in localStorage: a reload signs in again.
import { createPkce, createSdk, createState } from '@tessera/sdk';

export const issuer = import.meta.env.VITE_TESSERA_ISSUER ?? 'http://localhost:4000/o/acme/';
const clientId = import.meta.env.VITE_CLIENT_ID;
export const invoicesApi = import.meta.env.VITE_INVOICES_API ?? 'http://localhost:3001';
// The API's resource indicator as registered in Tessera: the token is minted for it (aud, scope).
const resource = import.meta.env.VITE_INVOICES_RESOURCE ?? `${invoicesApi}/invoices`;
if (!clientId) throw new Error('set VITE_CLIENT_ID: see README.md');

// `api` is the org's own address: its issuer without the trailing slash.
export const sdk = createSdk({ api: issuer.replace(/\/$/, ''), issuer, clientId });
const redirectUri = `${location.origin}/callback`;
const PENDING = 'tessera-sign-in';

/** Sends the browser to Tessera; the verifier and state wait in this tab's sessionStorage. */
export async function signIn() {
  const { codeVerifier, codeChallenge } = await createPkce();
  const state = createState();
  sessionStorage.setItem(PENDING, JSON.stringify({ codeVerifier, state }));
  location.assign(
    sdk.authorizationUrl({
      redirectUri,
      codeChallenge,
      state,
      scope: 'invoices:read',
      resource,
    }),
  );
}

/**
 * On /callback: checks the state against the one this tab sent, redeems the code with the verifier, and
 * takes the code out of the address bar. Resolves to the TokenSet; null on any other page.
 */
export async function finishSignIn() {
  if (location.pathname !== '/callback') return null;
  const params = new URLSearchParams(location.search);
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null');
  sessionStorage.removeItem(PENDING); // one use
  history.replaceState(null, '', '/');
  if (!pending || params.get('state') !== pending.state || !params.get('code')) {
    throw new Error('This sign-in was not started here: sign in again.');
  }
  return sdk.token.authorizationCode({
    code: params.get('code'),
    redirectUri,
    codeVerifier: pending.codeVerifier,
  });
}

/**
 * Who is signed in, from the access token once the SDK has verified it (signature from the org's key set,
 * issuer, audience, expiry): the person's id, the tenant the token acts in, and its scopes for the API.
 */
export async function whoIs(tokens) {
  const claims = await sdk.verify(tokens.accessToken);
  return { userId: claims.sub, tenantId: claims.tnt, scope: claims.scope };
}

/** Signs out: the refresh token is revoked, which ends the session at Tessera. */
export async function signOut(tokens) {
  if (tokens.refreshToken) await sdk.revoke({ token: tokens.refreshToken });
}
