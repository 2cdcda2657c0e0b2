import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { makeClient, makeOrg, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  DPOP_PAGE,
  type DpopSpaConfig,
  NOTES_NONCE,
  type NotesCall,
  startNotesApi,
} from './support/dpop-spa.js';
import { bundleSdk, serveSpa } from './support/spa.js';

interface Outcome {
  signedIn: { tokenType: string; sub: string; cnf: { jkt: string } };
  thumbprint: string;
  key: { extractable: boolean; publicJwk: JWK; exportPrivate: string };
  notes: { status: number; body: unknown };
  created: { status: number; body: unknown };
  userinfo: { status: number; body: { sub?: string } };
  refreshed: { tokenType: string; cnf: { jkt: string } };
  asBearer: { status: number; challenge: string | null };
  replay: [number, number, string | null];
  failed?: unknown;
  thrown?: unknown;
}

const ath = (token: string) => createHash('sha256').update(token, 'ascii').digest('base64url');

/**
 * A browser SPA on another origin gets and uses DPoP-bound tokens with `@tessera/sdk` (DESIGN §20):
 * its key is the SDK's non-extractable one in IndexedDB, the code is bound to it (`dpop_jkt`), the
 * access token's `cnf.jkt` is its thumbprint, and a Koa API on a third origin with `@tessera/koa`'s
 * `dpop: 'required'` (and nonces) takes the token with the SDK's proofs — and refuses it as Bearer,
 * with a proof sent twice, or with a thief's own key.
 */
describe('a browser SPA on another origin gets and uses DPoP-bound tokens with @tessera/sdk', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let spa: { origin: string; server: Server };
  let notes: Awaited<ReturnType<typeof startNotesApi>>;
  let config: DpopSpaConfig;
  let userId: string;

  before(async () => {
    if (skip) return;
    server = await startServer({ webhooks: false });
    const issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    ({
      user: { id: userId },
    } = await makeUser(server.deps, org, 'ada@acme.test'));
    config = { api: issuer.slice(0, -1), issuer, clientId: '', notesApi: '' };
    notes = await startNotesApi(
      issuer,
      () => config.clientId,
      () => spa.origin,
    );
    config.notesApi = notes.origin;
    spa = await serveSpa(config, await bundleSdk(), DPOP_PAGE);
    const { clientId } = await makeClient(server.deps, org, {
      name: 'Notes SPA',
      redirectUris: [`${spa.origin}/callback`],
    });
    config.clientId = clientId;
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await new Promise((r) => (spa?.server ? spa.server.close(r) : r(null)));
    await notes?.close();
    await server?.close();
  });

  test('signs in with a code bound to its IndexedDB key, calls a DPoP-only API cross-origin; replays are refused', {
    skip,
  }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const authorizeUrls: URL[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/oauth/authorize') authorizeUrls.push(url);
    });
    await page.goto(`${spa.origin}/`);
    await page.waitForURL((u) => u.pathname === '/login');
    // The authorization request names the key (dpop_jkt, RFC 9449 §10).
    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/consent' || u.origin === spa.origin);
    if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
    await page.waitForURL((u) => u.origin === spa.origin && u.pathname === '/callback');
    await page.waitForFunction(() => 'outcome' in window);
    const outcome = await page.evaluate(() => (window as unknown as { outcome: Outcome }).outcome);
    const stolen = await page.evaluate(
      () => (window as unknown as { stolen: { accessToken: string; proof: string } }).stolen,
    );
    await context.close();
    assert.equal(outcome.failed ?? outcome.thrown, undefined, JSON.stringify(outcome));

    // The key: never extractable, and the one the tokens are bound to.
    const jkt = await calculateJwkThumbprint(outcome.key.publicJwk);
    assert.equal(outcome.key.extractable, false);
    assert.equal(outcome.key.exportPrivate, 'InvalidAccessError');
    assert.equal(outcome.thumbprint, jkt);
    assert.deepEqual(
      authorizeUrls.map((u) => u.searchParams.get('dpop_jkt')),
      [jkt],
    );
    assert.deepEqual(outcome.signedIn, { tokenType: 'DPoP', sub: userId, cnf: { jkt } });
    assert.deepEqual(outcome.refreshed, { tokenType: 'DPoP', cnf: { jkt } });

    // The API, on a third origin, took the bound token with the SDK's proofs.
    assert.deepEqual(outcome.notes, { status: 200, body: { owner: userId, notes: [] } });
    assert.deepEqual(outcome.created, { status: 201, body: { owner: userId, created: true } });
    assert.deepEqual(outcome.userinfo, {
      status: 200,
      body: { sub: userId, email: 'ada@acme.test', email_verified: false },
    });
    // Its first call lacked the API's nonce (401 use_dpop_nonce), and the SDK retried once with it.
    const dpopCall = (status: number, method = 'GET'): NotesCall => ({
      method,
      scheme: 'DPoP',
      proof: true,
      status,
    });
    assert.deepEqual(notes.calls.slice(0, 3), [dpopCall(401), dpopCall(200), dpopCall(201, 'POST')]);

    // The page's own tries: the token as Bearer, and one proof sent twice.
    assert.deepEqual(outcome.asBearer, {
      status: 401,
      challenge: 'DPoP realm="notes", algs="ES256 RS256 EdDSA Ed25519"',
    });
    assert.deepEqual(outcome.replay, [
      200,
      401,
      'DPoP realm="notes", algs="ES256 RS256 EdDSA Ed25519", error="invalid_dpop_proof"',
    ]);

    // A thief outside the browser with the token (and the proof it saw): Bearer, the seen proof
    // again, a proof of the thief's own key (with the API's nonce), no proof. Each is refused.
    const url = `${notes.origin}/notes`;
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const thiefProof = await new SignJWT({
      htm: 'GET',
      htu: url,
      ath: ath(stolen.accessToken),
      nonce: NOTES_NONCE,
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(publicKey) })
      .setIssuedAt()
      .setJti(randomUUID())
      .sign(privateKey);
    const tries: [string, string | undefined][] = [
      [`Bearer ${stolen.accessToken}`, undefined],
      [`DPoP ${stolen.accessToken}`, stolen.proof],
      [`DPoP ${stolen.accessToken}`, thiefProof],
      [`DPoP ${stolen.accessToken}`, undefined],
    ];
    const statuses = [];
    for (const [authorization, dpop] of tries) {
      const res = await fetch(url, { headers: { authorization, ...(dpop === undefined ? {} : { dpop }) } });
      statuses.push(res.status);
      assert.deepEqual(await res.json(), {
        error: 'unauthorized',
        error_detail: "we don't know who you are",
      });
    }
    assert.deepEqual(statuses, [401, 401, 401, 401]);
    // And Tessera's own userinfo takes it no more as Bearer than the API does.
    const userinfo = await fetch(`${config.api}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${stolen.accessToken}` },
    });
    assert.equal(userinfo.status, 401);
  });
});
