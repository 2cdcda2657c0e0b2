import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from '@koa/cors';
import { authenticate, createVerifier, principalOf } from '@tessera/koa';
import Koa from 'koa';
import type { SpaConfig } from './spa.js';

/** The DPoP SPA's configuration: Tessera, its client, and the notes API it calls. */
export interface DpopSpaConfig extends SpaConfig {
  notesApi: string;
}

/**
 * A single-page app that signs in with `@tessera/sdk`'s DPoP on: `/` asks for a code bound to its
 * IndexedDB key (`dpop_jkt`), `/callback` redeems it with a proof, then — with the bound token — calls
 * the notes API (another origin, DPoP required, with nonces) and Tessera's userinfo through
 * `sdk.dpop.fetch`, refreshes, and tries the two things a thief would: the token as Bearer, and a
 * proof sent twice. What it saw goes to `window.outcome`; the refreshed token and the used proof to
 * `window.stolen`, for the test's thief outside the browser.
 */
export const DPOP_PAGE = (config: DpopSpaConfig) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>DPoP SPA</title></head>
<body><pre id="out">working</pre>
<script type="module">
import { createPkce, createSdk, createState, SdkError } from '/sdk.js';
const config = ${JSON.stringify(config)};
const sdk = createSdk({ api: config.api, issuer: config.issuer, clientId: config.clientId, dpop: true });
const redirectUri = location.origin + '/callback';
const failure = (err) => err instanceof SdkError ? { status: err.status, code: err.code } : { thrown: String(err) };
const answer = async (res) => ({ status: res.status, body: await res.json() });
const storedPair = () => new Promise((resolve, reject) => {
  const open = indexedDB.open('tessera-dpop');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const get = open.result.transaction('keys').objectStore('keys').get(config.issuer + '\\n' + config.clientId);
    get.onsuccess = () => { open.result.close(); resolve(get.result); };
    get.onerror = () => reject(get.error);
  };
});
async function start() {
  const { codeVerifier, codeChallenge } = await createPkce();
  const state = createState();
  sessionStorage.setItem('pkce', JSON.stringify({ codeVerifier, state }));
  const dpopJkt = await sdk.dpop.thumbprint();
  location.assign(sdk.authorizationUrl({ redirectUri, codeChallenge, state, scope: 'openid email', dpopJkt }));
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
    outcome.signedIn = { tokenType: tokens.tokenType, sub: claims.sub, cnf: claims.cnf };
    outcome.thumbprint = await sdk.dpop.thumbprint();
    const pair = await storedPair();
    outcome.key = {
      extractable: pair.privateKey.extractable,
      publicJwk: await crypto.subtle.exportKey('jwk', pair.publicKey),
      exportPrivate: await crypto.subtle.exportKey('jwk', pair.privateKey).then(() => 'exported', (e) => e.name),
    };
    const notes = config.notesApi + '/notes';
    outcome.notes = await answer(await sdk.dpop.fetch(tokens.accessToken, notes));
    outcome.created = await answer(await sdk.dpop.fetch(tokens.accessToken, notes, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    }));
    outcome.userinfo = await answer(await sdk.dpop.fetch(tokens.accessToken, config.api + '/oauth/userinfo'));
    const fresh = await sdk.token.refresh({ refreshToken: tokens.refreshToken });
    outcome.refreshed = { tokenType: fresh.tokenType, cnf: (await sdk.verify(fresh.accessToken)).cnf };
    const asBearer = await fetch(notes, { headers: { authorization: 'Bearer ' + fresh.accessToken } });
    outcome.asBearer = { status: asBearer.status, challenge: asBearer.headers.get('www-authenticate') };
    const proof = await sdk.dpop.proof({ method: 'GET', url: notes, accessToken: fresh.accessToken });
    const send = () => fetch(notes, { headers: { authorization: 'DPoP ' + fresh.accessToken, dpop: proof } });
    const once = await send();
    const twice = await send();
    outcome.replay = [once.status, twice.status, twice.headers.get('www-authenticate')];
    window.stolen = { accessToken: fresh.accessToken, proof };
  } catch (err) {
    outcome.failed = failure(err);
  }
  window.outcome = outcome;
  document.getElementById('out').textContent = 'done';
}
const run = location.pathname === '/callback' ? finish : start;
run().catch((err) => { window.outcome = { thrown: String(err) }; });
</script></body></html>`;

/** One request as the notes API answered it. */
export interface NotesCall {
  method: string;
  scheme: string | null;
  proof: boolean;
  status: number;
}

/** The nonce the notes API hands out (RFC 9449 §9). */
export const NOTES_NONCE = 'notes-nonce-1';

/**
 * The SPA's own API, as an app writes it with `@tessera/koa`: `dpop: 'required'`, server nonces,
 * CORS for the SPA's origin (the `DPoP` header allowed, `WWW-Authenticate` and `DPoP-Nonce` readable).
 * `GET /notes` and `POST /notes` answer with the caller's `sub`.
 */
export async function startNotesApi(
  issuer: string,
  clientId: () => string,
  spaOrigin: () => string,
): Promise<{ origin: string; calls: NotesCall[]; close(): Promise<void> }> {
  const calls: NotesCall[] = [];
  const app = new Koa();
  app.use(async (ctx, next) => {
    const authorization = ctx.get('authorization');
    try {
      await next();
    } finally {
      if (ctx.method !== 'OPTIONS')
        calls.push({
          method: ctx.method,
          scheme: authorization === '' ? null : (authorization.split(' ')[0] as string),
          proof: ctx.get('dpop') !== '',
          status: ctx.status,
        });
    }
  });
  app.use(
    cors({
      origin: (ctx) => (ctx.get('origin') === spaOrigin() ? spaOrigin() : ''),
      allowHeaders: ['authorization', 'content-type', 'dpop'],
      exposeHeaders: ['www-authenticate', 'dpop-nonce'],
    }),
  );
  // Made on the first request (the client exists by then), once: its replay store lives with it.
  let guard: Koa.Middleware | null = null;
  app.use((ctx, next) => {
    guard ??= authenticate({
      verify: createVerifier({ issuer, clientId: clientId() }),
      realm: 'notes',
      dpop: 'required',
      dpopNonces: { current: () => NOTES_NONCE, check: (nonce) => nonce === NOTES_NONCE },
    });
    return guard(ctx, next);
  });
  app.use((ctx) => {
    const sub = principalOf(ctx).claims.sub;
    if (ctx.path !== '/notes') ctx.status = 404;
    else if (ctx.method === 'POST') {
      ctx.status = 201;
      ctx.body = { owner: sub, created: true };
    } else ctx.body = { owner: sub, notes: [] };
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
