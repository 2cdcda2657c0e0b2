import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { authenticate, createTokenMinter, createVerifier, principalOf, whitelist } from '@tessera/koa';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import Koa from 'koa';
import { createClient } from '../../server/src/domain/directory/clients.js';
import { rotateKeys } from '../../server/src/domain/keys/keys.js';
import { type Org, SYSTEM } from '../../server/src/domain/types.js';
import {
  makeClient,
  makeUser,
  PASSWORD,
  signInWithIdToken,
} from '../../server/test/sign-in/support/fixtures.js';
import { orgWithMachineClient } from '../../server/test/support/fixtures.js';
import { startServer, type TestServer } from '../../server/test/support/server.js';
import { createVerifierWith } from '../src/verifier.js';
import { type RunningApp, serve } from './support/app.js';

const UNAUTHORIZED = { error: 'unauthorized', error_detail: "we don't know who you are" };

/**
 * A Koa API behind `authenticate`, trusting one confidential client of a running Tessera, called with
 * machine tokens that `createTokenMinter` gets from that Tessera's token endpoint.
 */
describe('a Koa API behind authenticate, called with machine tokens from a running Tessera', () => {
  let tessera: TestServer;
  let api: RunningApp;
  let issuer: string;
  let org: Org;
  let trusted: { clientId: string; clientSecret: string };
  let untrusted: { clientId: string; clientSecret: string };

  before(async () => {
    tessera = await startServer();
    const acme = await orgWithMachineClient(tessera.deps, 'acme');
    issuer = acme.issuer;
    org = acme.org;
    trusted = { clientId: acme.clientId, clientSecret: acme.clientSecret };
    const other = await createClient(
      tessera.deps,
      acme.org,
      { name: 'acme reporting', kind: 'confidential', redirectUris: [] },
      SYSTEM,
    );
    untrusted = { clientId: other.client.id, clientSecret: other.secret as string };

    const verify = createVerifier({
      issuer,
      clientId: 'cli_invoices_web',
      accept: ['client'],
      trustedClients: [trusted.clientId],
    });
    const app = new Koa();
    app.use(authenticate({ verify, realm: 'invoices-api' }, whitelist([['/health', ['GET']]])));
    app.use((ctx) => {
      if (ctx.path === '/health') ctx.body = { ok: true };
      else if (ctx.path === '/invoices') ctx.body = { caller: principalOf(ctx) };
    });
    api = await serve(app);
  });
  after(async () => {
    await api?.close();
    await tessera?.close();
  });

  const call = async (token: string) =>
    api.request('/invoices', { headers: { authorization: `Bearer ${token}` } });

  test('a trusted client’s minted token is accepted, and the route sees who called', async () => {
    // The org's own host, as a deployed service would call it (`*.localhost` resolves to loopback).
    const minter = createTokenMinter({ api: issuer.slice(0, -1), issuer, ...trusted });
    const res = await call(await minter.token());
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      caller: { kind: string; clientId: string; claims: Record<string, unknown> };
    };
    assert.equal(body.caller.kind, 'client');
    assert.equal(body.caller.clientId, trusted.clientId);
    assert.equal(body.caller.claims.typ, 'client');
    assert.equal(body.caller.claims.iss, issuer);
    assert.equal(body.caller.claims.sub, trusted.clientId);
    assert.equal(body.caller.claims.aud, trusted.clientId);
  });

  test('the same through the loopback host override', async () => {
    const minter = createTokenMinter({
      api: `http://127.0.0.1:${tessera.port}`,
      hostOverride: new URL(issuer).host,
      issuer,
      ...trusted,
    });
    const res = await call(await minter.token());
    assert.equal(res.status, 200);
  });

  test('under hostOverride the verifier reads the org key set from localhost with ?host=, and iss stays the org issuer', async () => {
    const host = new URL(issuer).host;
    const loopback = `http://localhost:${tessera.port}`;
    const fetched: string[] = [];
    const recording: typeof fetch = (input, init) => {
      fetched.push(String(input));
      return fetch(input, init);
    };
    const verify = createVerifierWith(
      {
        issuer,
        clientId: 'cli_invoices_web',
        accept: ['client'],
        trustedClients: [trusted.clientId],
        hostOverride: host,
      },
      { fetch: recording },
    );
    const minter = createTokenMinter({ api: loopback, hostOverride: host, issuer, ...trusted });
    const verified = await verify(await minter.token());
    assert.equal(verified?.kind, 'client');
    assert.equal(verified.claims.iss, issuer);
    assert.deepEqual(fetched, [`${loopback}/.well-known/jwks.json?host=${encodeURIComponent(host)}`]);
  });

  test('a client not in trustedClients gets the 401 of the spec, though its token is genuine', async () => {
    const minter = createTokenMinter({ api: issuer.slice(0, -1), issuer, ...untrusted });
    const token = await minter.token();
    const res = await call(token);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="invoices-api"');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await res.json(), UNAUTHORIZED);
    // The whitelisted route still answers without a token.
    assert.equal((await api.request('/health')).status, 200);
  });

  test('after a key rotation, fresh() mints under the new kid (published before it signed) and both verify', async () => {
    const minter = createTokenMinter({ api: issuer.slice(0, -1), issuer, ...trusted });
    const before = await minter.token();
    assert.equal((await call(before)).status, 200);
    const newKid = await rotateKeys(tessera.deps, org, SYSTEM);
    const after = await minter.fresh();
    assert.notEqual(after, before);
    assert.equal(decodeProtectedHeader(after).kid, newKid);
    assert.equal((await call(after)).status, 200);
    // Tokens signed before the rotation stay valid until they expire.
    assert.equal((await call(before)).status, 200);
  });

  test('an ID token of a real sign-in (same iss and aud as its access token) is not an access token', async () => {
    await makeUser(tessera.deps, org, 'ada@acme.test');
    const { clientId } = await makeClient(tessera.deps, org, { name: 'Acme web' });
    const verify = createVerifier({ issuer, clientId });
    const { accessToken, idToken } = await signInWithIdToken(issuer, clientId, {
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    const id = decodeJwt(idToken);
    assert.deepEqual([id.iss, id.aud], [issuer, clientId]);
    assert.equal((await verify(accessToken))?.kind, 'user');
    assert.equal(await verify(idToken), null);
  });
});
