// An Express app that signs people in with Tessera: OpenID Connect's authorization code flow with PKCE,
// state and nonce (openid-client), the person's name and email on the home page, and sign-out at Tessera's
// end_session_endpoint. See README.md for how to run it against a local Tessera.
import express from 'express';
import * as oidc from 'openid-client';
import { sealedCookies } from './session.mjs';

const issuer = new URL(process.env.TESSERA_ISSUER ?? 'http://localhost:4000/o/acme/');
const clientId = process.env.CLIENT_ID;
const clientSecret = process.env.CLIENT_SECRET; // unset for a public client
const port = Number(process.env.PORT ?? 3000);
const appUrl = process.env.APP_URL ?? `http://localhost:${port}`;
if (!clientId) throw new Error('set CLIENT_ID (and CLIENT_SECRET for a confidential client): see README.md');

const redirectUri = `${appUrl}/callback`;
const SESSION = 'session';
const SIGN_IN = 'sign_in'; // the pending sign-in's PKCE verifier, state and nonce, for ten minutes

// http is for a Tessera on your machine only; openid-client refuses it unless told otherwise.
const insecure = issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {};
const config = await oidc.discovery(
  issuer,
  clientId,
  clientSecret,
  clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(),
  insecure,
);
const cookies = sealedCookies(process.env.SESSION_SECRET, { secure: appUrl.startsWith('https:') });

const app = express();
app.disable('x-powered-by');

app.get('/', (req, res) => {
  const session = cookies.get(req, SESSION);
  res.type('html');
  if (!session) {
    res.send(page('Not signed in', '<p><a href="/login">Sign in</a></p>'));
    return;
  }
  res.send(
    page(
      `Signed in as ${escapeHtml(session.name ?? session.email ?? session.sub)}`,
      `<dl><dt>Name</dt><dd id="name">${escapeHtml(session.name ?? '')}</dd>` +
        `<dt>Email</dt><dd id="email">${escapeHtml(session.email ?? '')}</dd></dl>` +
        '<form method="post" action="/logout"><button type="submit">Sign out</button></form>',
    ),
  );
});

app.get('/login', async (_req, res) => {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  cookies.set(res, SIGN_IN, { verifier, state, nonce }, 10 * 60_000);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  res.redirect(url.href);
});

app.get('/callback', async (req, res) => {
  const pending = cookies.get(req, SIGN_IN);
  cookies.clear(res, SIGN_IN); // one use: a replayed callback finds nothing to finish
  if (!pending) {
    res.status(400).type('text').send('No sign-in in progress here: start again at /login');
    return;
  }
  try {
    // Checks state, the issuer (RFC 9207's `iss`), then exchanges the code with the PKCE verifier and
    // validates the ID token (signature, `iss`, `aud`, `exp`, nonce).
    const tokens = await oidc.authorizationCodeGrant(config, new URL(req.originalUrl, appUrl), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    // Only what the pages need is kept; the access token is not, since this app calls no API with it.
    cookies.set(
      res,
      SESSION,
      { sub: claims.sub, name: userinfo.name, email: userinfo.email, idToken: tokens.id_token },
      8 * 3600_000,
    );
    res.redirect('/');
  } catch (error) {
    // The error's code only: never a token, code or secret in the log.
    console.warn(`sign-in failed: ${error?.code ?? error?.name} ${error?.error ?? ''}`.trim());
    res.status(400).type('text').send('Sign-in failed: start again at /login');
  }
});

// A form POST, not a link: another site cannot sign people out with an <img>, and the SameSite=Lax
// session cookie is not sent with another site's POST.
app.post('/logout', (req, res) => {
  const session = cookies.get(req, SESSION);
  cookies.clear(res, SESSION);
  if (!session?.idToken) {
    res.redirect(303, '/');
    return;
  }
  // RP-Initiated Logout: Tessera ends its own sign-in too, and, since the ID token names this client
  // and the person, returns straight here (post_logout_redirect_uri must be registered on the client).
  const url = oidc.buildEndSessionUrl(config, {
    id_token_hint: session.idToken,
    post_logout_redirect_uri: `${appUrl}/`,
  });
  res.redirect(303, url.href);
});

app.listen(port, '127.0.0.1', () => console.log(`listening on ${appUrl}`));

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
