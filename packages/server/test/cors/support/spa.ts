import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const SDK_ENTRY = fileURLToPath(new URL('../../../../sdk/src/index.ts', import.meta.url));

/** `@tessera/sdk` bundled for browsers (ESM, jose inside), as a SPA's build would ship it. */
export async function bundleSdk(): Promise<string> {
  const result = await build({
    entryPoints: [SDK_ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild wrote nothing');
  return file.text;
}

/** What the page is told: where Tessera is and which client it is. */
export interface SpaConfig {
  api: string;
  issuer: string;
  clientId: string;
}

/**
 * The single-page app: `/` starts a sign-in (PKCE verifier and state in sessionStorage), `/callback`
 * finishes it — redeem the code, verify the access token against the JWKS, refresh, call userinfo
 * with the bearer token, revoke, and try the spent refresh token — and writes what it saw into
 * `window.outcome` (never a token). Any SdkError is recorded by its status and code.
 */
const PAGE = (config: SpaConfig) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SPA</title></head>
<body><pre id="out">working</pre>
<script type="module">
import { createPkce, createSdk, createState, SdkError } from '/sdk.js';
const config = ${JSON.stringify(config)};
const sdk = createSdk(config);
const redirectUri = location.origin + '/callback';
const failure = (err) => err instanceof SdkError ? { status: err.status, code: err.code } : { thrown: String(err) };
async function start() {
  const { codeVerifier, codeChallenge } = await createPkce();
  const state = createState();
  sessionStorage.setItem('pkce', JSON.stringify({ codeVerifier, state }));
  location.assign(sdk.authorizationUrl({ redirectUri, codeChallenge, state, scope: 'openid email' }));
}
async function finish() {
  const params = new URLSearchParams(location.search);
  const { codeVerifier, state } = JSON.parse(sessionStorage.getItem('pkce') ?? '{}');
  sessionStorage.removeItem('pkce');
  if (params.get('state') !== state) throw new Error('state mismatch');
  const outcome = {};
  try {
    const tokens = await sdk.token.authorizationCode({ code: params.get('code'), redirectUri, codeVerifier });
    const claims = await sdk.verify(tokens.accessToken);
    outcome.signedIn = { sub: claims.sub, aud: claims.aud, typ: claims.typ, refresh: typeof tokens.refreshToken };
    const fresh = await sdk.token.refresh({ refreshToken: tokens.refreshToken });
    outcome.refreshed = fresh.accessToken !== tokens.accessToken && fresh.refreshToken !== tokens.refreshToken;
    const res = await fetch(config.api + '/oauth/userinfo', { headers: { authorization: 'Bearer ' + fresh.accessToken } });
    outcome.userinfo = { status: res.status, body: await res.json() };
    await sdk.revoke({ token: fresh.refreshToken });
    outcome.revoked = true;
    await sdk.token.refresh({ refreshToken: fresh.refreshToken }).catch((err) => { outcome.afterRevoke = failure(err); });
  } catch (err) {
    outcome.failed = failure(err);
  }
  window.outcome = outcome;
  document.getElementById('out').textContent = 'done';
}
async function refuseAfar() {
  // An origin that is no allowed origin of the client: the token endpoint's answer is kept from it.
  window.outcome = await sdk.token.refresh({ refreshToken: 'not-a-token' }).then(() => ({ read: true }), failure);
  document.getElementById('out').textContent = 'done';
}
const run = location.pathname === '/callback' ? finish : location.pathname === '/afar' ? refuseAfar : start;
run().catch((err) => { window.outcome = { thrown: String(err) }; });
</script></body></html>`;

/** Serves the SPA on 127.0.0.1 (a free port): the page on every path, the SDK at /sdk.js. */
export async function serveSpa<C extends SpaConfig>(
  config: C,
  sdkBundle: string,
  page: (config: C) => string = PAGE,
): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(sdkBundle);
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
    } else {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(config));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return { origin: `http://127.0.0.1:${address.port}`, server };
}
