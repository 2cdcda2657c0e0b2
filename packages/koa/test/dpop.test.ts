import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  authenticate,
  createVerifier,
  type DpopNonces,
  memoryReplayStore,
  principalOf,
  type Refusal,
} from '@tessera/koa';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Koa from 'koa';
import * as oauth from 'oauth4webapi';
import { orgWithMachineClient } from '../../server/test/support/fixtures.js';
import { startServer, type TestServer } from '../../server/test/support/server.js';
import { type RunningApp, serve } from './support/app.js';

const REALM = 'files';
const ALGS = 'algs="ES256 RS256 EdDSA Ed25519"';
const UNAUTHORIZED = '{"error":"unauthorized","error_detail":"we don\'t know who you are"}';

interface Key {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A DPoP proof for `htu`; `claims` replace or add any claim. */
function proof(key: Key, htu: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({
    htm: 'GET',
    htu,
    jti: randomUUID(),
    iat: Math.floor(Date.now() / 1000),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

/**
 * `@tessera/koa`'s `dpop` option against tokens a running Tessera bound to a key, fetched and used by
 * oauth4webapi's DPoP handle and by hand-made proofs; and the 401 without the option, unchanged.
 */
describe('@tessera/koa verifies DPoP-bound tokens from a running Tessera', () => {
  let tessera: TestServer;
  let issuer: string;
  let clientId: string;
  let clientSecret: string;
  let as: oauth.AuthorizationServer;
  const client: oauth.Client = { client_id: '' };
  const apps: RunningApp[] = [];
  const refusals: string[] = [];
  let plainApi: RunningApp;
  let allowedApi: RunningApp;
  let requiredApi: RunningApp;
  let nonceApi: RunningApp;
  let proxiedApi: RunningApp;
  let nonce = 'n-1';

  /** A Koa API answering its principal's client id behind `authenticate` with `extra` options. */
  async function api(extra: Record<string, unknown>, configure?: (app: Koa) => void): Promise<RunningApp> {
    const app = new Koa();
    configure?.(app);
    const verify = createVerifier({ issuer, clientId, accept: ['client'], trustedClients: [clientId] });
    app.use(
      authenticate({
        verify,
        realm: REALM,
        onRefused: (reason: Refusal) => void refusals.push(reason.code),
        ...extra,
      }),
    );
    app.use((ctx) => {
      const who = principalOf(ctx);
      ctx.body = { client: who.kind === 'client' ? who.clientId : null };
    });
    const running = await serve(app);
    apps.push(running);
    return running;
  }

  before(async () => {
    tessera = await startServer();
    ({ issuer, clientId, clientSecret } = await orgWithMachineClient(tessera.deps, 'acme'));
    client.client_id = clientId;
    as = await oauth.processDiscoveryResponse(
      new URL(issuer),
      await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true }),
    );
    plainApi = await api({});
    allowedApi = await api({ dpop: 'allowed', dpopReplay: memoryReplayStore() });
    requiredApi = await api({ dpop: 'required' });
    const nonces: DpopNonces = { current: () => nonce, check: (n) => n === nonce };
    nonceApi = await api({ dpop: 'required', dpopNonces: nonces });
    proxiedApi = await api({ dpop: 'required' }, (app) => {
      app.proxy = true;
    });
  });
  after(async () => {
    for (const app of apps) await app.close();
    await tessera.close();
  });

  /** A client_credentials token from Tessera, bound to `key` when one is given. */
  async function machineToken(key?: oauth.CryptoKeyPair): Promise<string> {
    const options = {
      [oauth.allowInsecureRequests]: true,
      ...(key === undefined ? {} : { DPoP: oauth.DPoP(client, key) }),
    };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(clientSecret),
      new URLSearchParams(),
      options,
    );
    const tokens = await oauth.processClientCredentialsResponse(as, client, response);
    assert.equal(tokens.token_type, key === undefined ? 'bearer' : 'dpop');
    return tokens.access_token;
  }

  async function call(app: RunningApp, authorization: string | null, dpop?: string, headers = {}) {
    const response = await app.request('/files', {
      headers: {
        ...(authorization === null ? {} : { authorization }),
        ...(dpop === undefined ? {} : { dpop }),
        ...headers,
      },
    });
    return {
      status: response.status,
      challenge: response.headers.get('www-authenticate'),
      nonce: response.headers.get('dpop-nonce'),
      type: response.headers.get('content-type'),
      body: await response.text(),
    };
  }

  const lastRefusal = () => refusals.at(-1);

  test('without the option the 401 is the spec’s, byte for byte, and a bound token is refused like a malformed claim', async () => {
    const spec = {
      status: 401,
      challenge: `Bearer realm="${REALM}"`,
      nonce: null,
      type: 'application/json',
      body: UNAUTHORIZED,
    };
    assert.deepEqual(await call(plainApi, null), spec);
    const response = await plainApi.request('/files');
    assert.deepEqual(
      [...(response.headers as unknown as Map<string, string>).keys()].filter((h) => h !== 'date'),
      ['connection', 'content-length', 'content-type', 'keep-alive', 'www-authenticate'],
    );
    assert.equal(response.headers.get('content-length'), String(UNAUTHORIZED.length));

    const bound = await machineToken(await oauth.generateKeyPair('ES256'));
    assert.deepEqual(await call(plainApi, `Bearer ${bound}`), spec);
    assert.equal(lastRefusal(), 'malformed_claims');
    // The DPoP scheme is another scheme: no token, as the spec says.
    assert.deepEqual(
      await call(plainApi, `DPoP ${bound}`, await proof(await newKey(), `${plainApi.url}/files`)),
      spec,
    );
    assert.equal(lastRefusal(), 'no_token');
    // A plain bearer token is taken as before.
    assert.equal((await call(plainApi, `Bearer ${await machineToken()}`)).status, 200);
  });

  test("allowed: oauth4webapi's DPoP handle calls the API; Bearer stays first in the challenge", async () => {
    const keyPair = await oauth.generateKeyPair('ES256');
    const token = await machineToken(keyPair);
    const DPoP = oauth.DPoP(client, keyPair);
    const response = await oauth.protectedResourceRequest(
      token,
      'GET',
      new URL(`${allowedApi.url}/files`),
      new Headers(),
      null,
      {
        DPoP,
        [oauth.allowInsecureRequests]: true,
      },
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { client: clientId });

    const none = await call(allowedApi, null);
    assert.equal(none.status, 401);
    assert.equal(none.challenge, `Bearer realm="${REALM}", DPoP realm="${REALM}", ${ALGS}`);
    assert.equal(none.body, UNAUTHORIZED);
    assert.equal((await call(allowedApi, `Bearer ${await machineToken()}`)).status, 200);
  });

  test('a stolen bound token: as Bearer, without a proof, with another key, with a replayed proof — each refused', async () => {
    const key = await newKey();
    const keyPair = {
      privateKey: key.privateKey,
      publicKey: await crypto.subtle.importKey('jwk', key.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, [
        'verify',
      ]),
    };
    const token = await machineToken(keyPair as oauth.CryptoKeyPair);
    const url = `${allowedApi.url}/files`;
    const legit = await proof(key, url, { ath: ath(token) });
    assert.equal((await call(allowedApi, `DPoP ${token}`, legit)).status, 200, refusals.join());

    const cases: [string, () => Promise<Awaited<ReturnType<typeof call>>>, string, string][] = [
      [
        'as Bearer',
        async () => call(allowedApi, `Bearer ${token}`),
        'dpop_bound_token_as_bearer',
        'error="invalid_token"',
      ],
      [
        'no proof',
        async () => call(allowedApi, `DPoP ${token}`),
        'dpop_proof_missing',
        'error="invalid_dpop_proof"',
      ],
      [
        'another key',
        async () => call(allowedApi, `DPoP ${token}`, await proof(await newKey(), url, { ath: ath(token) })),
        'dpop_key_mismatch',
        'error="invalid_token"',
      ],
      [
        'replayed',
        async () => call(allowedApi, `DPoP ${token}`, legit),
        'dpop_replayed',
        'error="invalid_dpop_proof"',
      ],
      [
        'other URL',
        async () => call(allowedApi, `DPoP ${token}`, await proof(key, `${url}/x`, { ath: ath(token) })),
        'dpop_proof_mismatch',
        'error="invalid_dpop_proof"',
      ],
      [
        'other method',
        async () =>
          call(allowedApi, `DPoP ${token}`, await proof(key, url, { ath: ath(token), htm: 'POST' })),
        'dpop_proof_mismatch',
        'error="invalid_dpop_proof"',
      ],
      [
        'no ath',
        async () => call(allowedApi, `DPoP ${token}`, await proof(key, url)),
        'dpop_proof_mismatch',
        'error="invalid_dpop_proof"',
      ],
      [
        'old iat',
        async () =>
          call(
            allowedApi,
            `DPoP ${token}`,
            await proof(key, url, { ath: ath(token), iat: Math.floor(Date.now() / 1000) - 300 }),
          ),
        'dpop_proof_stale',
        'error="invalid_dpop_proof"',
      ],
      [
        'two proofs',
        async () => call(allowedApi, `DPoP ${token}`, `${legit}, ${legit}`),
        'dpop_proof_invalid',
        'error="invalid_dpop_proof"',
      ],
      [
        'garbage',
        async () => call(allowedApi, `DPoP ${token}`, 'x'.repeat(5000)),
        'dpop_proof_invalid',
        'error="invalid_dpop_proof"',
      ],
    ];
    for (const [name, send, code, error] of cases) {
      const answer = await send();
      assert.equal(lastRefusal(), code, name);
      assert.equal(answer.status, 401, name);
      assert.equal(answer.body, UNAUTHORIZED, name);
      assert.ok(answer.challenge?.startsWith(`Bearer realm="${REALM}"`), name);
      assert.ok(
        answer.challenge?.endsWith(`DPoP realm="${REALM}", ${ALGS}, ${error}`),
        `${name}: ${answer.challenge}`,
      );
    }
  });

  test('required: Bearer is refused and dropped from the challenge; a proof made for another host is refused', async () => {
    const plain = await call(requiredApi, `Bearer ${await machineToken()}`);
    assert.equal(plain.status, 401);
    assert.equal(plain.challenge, `DPoP realm="${REALM}", ${ALGS}`);
    assert.equal(lastRefusal(), 'dpop_required');

    const key = await newKey();
    const keyPair = {
      privateKey: key.privateKey,
      publicKey: await crypto.subtle.importKey('jwk', key.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, [
        'verify',
      ]),
    };
    const token = await machineToken(keyPair as oauth.CryptoKeyPair);
    assert.equal(
      (
        await call(
          requiredApi,
          `DPoP ${token}`,
          await proof(key, `${requiredApi.url}/files`, { ath: ath(token) }),
        )
      ).status,
      200,
    );
    // Behind a proxy (app.proxy), htu is the public URL the client called.
    const publicUrl = 'https://files.example.com/files';
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'files.example.com' };
    assert.equal(
      (await call(proxiedApi, `DPoP ${token}`, await proof(key, publicUrl, { ath: ath(token) }), forwarded))
        .status,
      200,
    );
    assert.equal(
      (
        await call(
          proxiedApi,
          `DPoP ${token}`,
          await proof(key, `${proxiedApi.url}/files`, { ath: ath(token) }),
          forwarded,
        )
      ).status,
      401,
    );
  });

  test('nonces: use_dpop_nonce with a DPoP-Nonce, and oauth4webapi retries with it', async () => {
    const keyPair = await oauth.generateKeyPair('ES256');
    const token = await machineToken(keyPair);
    const DPoP = oauth.DPoP(client, keyPair);
    const url = new URL(`${nonceApi.url}/files`);
    const request = () =>
      oauth.protectedResourceRequest(token, 'GET', url, new Headers(), null, {
        DPoP,
        [oauth.allowInsecureRequests]: true,
      });
    nonce = 'n-2';
    const first = await request().catch((error: unknown) => error);
    assert.ok(oauth.isDPoPNonceError(first), String(first));
    assert.equal(lastRefusal(), 'dpop_nonce_required');
    const second = await request();
    assert.equal(second.status, 200);

    const raw = await call(
      nonceApi,
      `DPoP ${token}`,
      await proof(await newKey(), url.href, { ath: ath(token) }),
    );
    assert.equal(raw.status, 401);
    assert.equal(raw.nonce, 'n-2');
    assert.equal(raw.challenge, `DPoP realm="${REALM}", ${ALGS}, error="use_dpop_nonce"`);
  });

  test('RS256 and Ed25519 proofs are taken; a key of another type, a private key or alg none is not', async () => {
    for (const alg of ['RS256', 'Ed25519'] as const) {
      const keyPair = await oauth.generateKeyPair(alg);
      const token = await machineToken(keyPair);
      const response = await oauth.protectedResourceRequest(
        token,
        'GET',
        new URL(`${requiredApi.url}/files`),
        new Headers(),
        null,
        {
          DPoP: oauth.DPoP(client, keyPair),
          [oauth.allowInsecureRequests]: true,
        },
      );
      assert.equal(response.status, 200, alg);
    }
    const ed = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const edJwk = await exportJWK(ed.publicKey);
    const edPair = { privateKey: ed.privateKey, publicKey: ed.publicKey } as unknown as oauth.CryptoKeyPair;
    const token = await machineToken(edPair);
    const url = `${requiredApi.url}/files`;
    const signed = (header: Record<string, unknown>, key: CryptoKey | Uint8Array = ed.privateKey) =>
      new SignJWT({
        htm: 'GET',
        htu: url,
        jti: randomUUID(),
        iat: Math.floor(Date.now() / 1000),
        ath: ath(token),
      })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'dpop+jwt', jwk: edJwk, ...header })
        .sign(key);
    assert.equal((await call(requiredApi, `DPoP ${token}`, await signed({}))).status, 200);
    const es = await newKey();
    const refusedProofs = [
      await signed({ jwk: { ...edJwk, d: (await exportJWK(ed.privateKey)).d } }),
      await signed({ alg: 'ES256' }).catch(() => 'x.y.z'),
      await signed({ crit: ['b64'], b64: true }),
      `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: edJwk })).toString('base64url')}.${Buffer.from(JSON.stringify({ htm: 'GET', htu: url, jti: 'n', iat: Math.floor(Date.now() / 1000), ath: ath(token) })).toString('base64url')}.`,
      await new SignJWT({
        htm: 'GET',
        htu: url,
        jti: randomUUID(),
        iat: Math.floor(Date.now() / 1000),
        ath: ath(token),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: edJwk })
        .sign(es.privateKey),
    ];
    for (const [i, dpop] of refusedProofs.entries()) {
      const answer = await call(requiredApi, `DPoP ${token}`, dpop);
      assert.equal(answer.status, 401, `proof ${i}`);
      assert.equal(lastRefusal(), 'dpop_proof_invalid', `proof ${i}`);
    }
  });

  test('options are checked at start-up', () => {
    const verify = createVerifier({ issuer, clientId });
    assert.throws(() => authenticate({ verify, realm: REALM, dpop: 'maybe' as 'allowed' }), TypeError);
    assert.throws(() => authenticate({ verify, realm: REALM, dpopReplay: memoryReplayStore() }), TypeError);
    assert.throws(
      () => authenticate({ verify, realm: REALM, dpop: 'allowed', dpopReplay: {} as never }),
      TypeError,
    );
  });

  test('the in-memory replay store forgets expired proofs and refuses when full of live ones', () => {
    let now = 1_000;
    const store = memoryReplayStore({ maxEntries: 2, now: () => now });
    assert.equal(store.claim('a', 2_000), true);
    assert.equal(store.claim('a', 2_000), false);
    assert.equal(store.claim('b', 3_000), true);
    assert.equal(store.claim('c', 3_000), false);
    now = 2_500;
    assert.equal(store.claim('c', 4_000), true);
    assert.equal(store.claim('a', 4_000), false);
  });
});
