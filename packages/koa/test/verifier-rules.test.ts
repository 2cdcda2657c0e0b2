import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createVerifier } from '@tessera/koa';
import {
  CLIENT_ID,
  clientClaims,
  signToken,
  startIssuer,
  type TestIssuer,
  userClaims,
} from './support/issuer.js';

const BILLING = 'cli_billing';

describe('createVerifier: the verification table', () => {
  let idp: TestIssuer;
  before(async () => {
    idp = await startIssuer();
  });
  after(() => idp.close());

  const userToken = (overrides: Record<string, unknown> = {}) =>
    signToken(idp.key, userClaims(idp.issuer, overrides));
  const clientToken = (clientId: string, overrides: Record<string, unknown> = {}) =>
    signToken(idp.key, clientClaims(idp.issuer, clientId, overrides));
  const usersOnly = () => createVerifier({ issuer: idp.issuer, clientId: CLIENT_ID });
  const usersAndBilling = () =>
    createVerifier({
      issuer: idp.issuer,
      clientId: CLIENT_ID,
      accept: ['user', 'client'],
      trustedClients: [BILLING],
    });

  test('a user token is accepted as {kind, userId, tenantId, claims} with the full payload', async () => {
    const claims = userClaims(idp.issuer);
    const verified = await usersOnly()(await signToken(idp.key, claims));
    assert.deepEqual(verified, { kind: 'user', userId: 'usr_alice', tenantId: 'tnt_acme', claims });
  });

  test('a user token whose aud is an array including clientId is accepted', async () => {
    const verified = await usersOnly()(await userToken({ aud: ['cli_other', CLIENT_ID] }));
    assert.equal(verified?.kind, 'user');
  });

  test('azp and act stay in claims of an accepted user token', async () => {
    const act = { sub: 'usr_admin' };
    const verified = await usersOnly()(await userToken({ azp: 'cli_public', act }));
    assert.equal(verified?.claims.azp, 'cli_public');
    assert.deepEqual(verified?.claims.act, act);
    // Typed members: an API reads them without casting.
    const azp: string | undefined = verified?.claims.azp;
    const actingAdmin: string | undefined = verified?.claims.act?.sub;
    assert.deepEqual([azp, actingAdmin], ['cli_public', 'usr_admin']);
  });

  test('a user token without azp or act has neither in claims', async () => {
    const verified = await usersOnly()(await userToken());
    assert.equal(verified?.kind, 'user');
    assert.equal(verified?.claims.azp, undefined);
    assert.equal(verified?.claims.act, undefined);
  });

  test('a malformed azp or act is a malformed claim: null', async () => {
    for (const overrides of [
      { azp: 42 },
      { azp: ['cli_public'] },
      { act: 'usr_admin' },
      { act: {} },
      { act: { sub: 7 } },
      { act: null },
    ]) {
      assert.equal(await usersOnly()(await userToken(overrides)), null, JSON.stringify(overrides));
    }
  });

  test('a machine token of a trusted client is accepted when accept includes client', async () => {
    const claims = clientClaims(idp.issuer, BILLING);
    const verified = await usersAndBilling()(await signToken(idp.key, claims));
    assert.deepEqual(verified, { kind: 'client', clientId: BILLING, claims });
  });

  test('a machine token whose aud is a one-element array equal to sub is accepted', async () => {
    const verified = await usersAndBilling()(await clientToken(BILLING, { aud: [BILLING] }));
    assert.equal(verified?.kind, 'client');
  });

  test('with accept ["client"] only, machine tokens pass and user tokens do not', async () => {
    const verify = createVerifier({
      issuer: idp.issuer,
      clientId: CLIENT_ID,
      accept: ['client'],
      trustedClients: [BILLING],
    });
    assert.equal((await verify(await clientToken(BILLING)))?.kind, 'client');
    assert.equal(await verify(await userToken()), null);
  });

  test('a machine token is refused when accept is the default ["user"], even for a listed client', async () => {
    const verify = createVerifier({ issuer: idp.issuer, clientId: CLIENT_ID, trustedClients: [BILLING] });
    assert.equal(await verify(await clientToken(BILLING)), null);
  });

  test('a machine token of a client not in trustedClients is refused', async () => {
    assert.equal(await usersAndBilling()(await clientToken('cli_stranger')), null);
  });

  test('a machine token whose aud differs from its sub is refused', async () => {
    const verify = usersAndBilling();
    assert.equal(await verify(await clientToken(BILLING, { aud: CLIENT_ID })), null);
    assert.equal(await verify(await clientToken(BILLING, { aud: [BILLING, CLIENT_ID] })), null);
  });

  test('a console token (typ console) is refused', async () => {
    assert.equal(await usersAndBilling()(await userToken({ typ: 'console' })), null);
  });

  test('an unknown or missing typ is refused', async () => {
    const verify = usersAndBilling();
    assert.equal(await verify(await userToken({ typ: 'admin' })), null);
    assert.equal(await verify(await userToken({ typ: 'USER' })), null);
    assert.equal(await verify(await userToken({ typ: undefined })), null);
  });

  test('a user token whose sub does not start with usr_ is refused', async () => {
    const verify = usersOnly();
    assert.equal(await verify(await userToken({ sub: 'alice@example.com' })), null);
    assert.equal(await verify(await userToken({ sub: 'cli_web' })), null);
    assert.equal(await verify(await userToken({ sub: 'usr_' })), null);
  });

  test('a user token whose tnt does not start with tnt_, or has none, is refused', async () => {
    const verify = usersOnly();
    assert.equal(await verify(await userToken({ tnt: 'acme' })), null);
    assert.equal(await verify(await userToken({ tnt: undefined })), null);
    assert.equal(await verify(await userToken({ tnt: 42 })), null);
  });

  test('a user token whose aud does not include clientId is refused', async () => {
    const verify = usersOnly();
    assert.equal(await verify(await userToken({ aud: 'cli_other' })), null);
    assert.equal(await verify(await userToken({ aud: ['cli_other', 'cli_third'] })), null);
    assert.equal(await verify(await userToken({ aud: [] })), null);
    assert.equal(await verify(await userToken({ aud: [CLIENT_ID, 7] })), null);
  });

  test('the returned claims are frozen: a route cannot change what other requests see', async () => {
    const verified = await usersOnly()(await userToken());
    assert.ok(verified);
    assert.throws(() => {
      (verified.claims as Record<string, unknown>).sub = 'usr_mallory';
    }, TypeError);
    assert.throws(() => {
      (verified.claims.amr as string[]).push('mfa');
    }, TypeError);
  });
});

describe('createVerifier: options are checked at start-up', () => {
  const issuer = 'https://acme.example.com/';

  const rejects = (options: unknown, name: string) =>
    assert.throws(
      () => createVerifier(options as Parameters<typeof createVerifier>[0]),
      (err: unknown) => err instanceof TypeError && err.message.includes(`"${name}"`),
    );

  test('issuer must be an absolute http(s) URL ending in a slash', () => {
    rejects({ clientId: CLIENT_ID }, 'issuer');
    rejects({ issuer: 42, clientId: CLIENT_ID }, 'issuer');
    rejects({ issuer: 'https://acme.example.com', clientId: CLIENT_ID }, 'issuer');
    rejects({ issuer: '/acme/', clientId: CLIENT_ID }, 'issuer');
    rejects({ issuer: 'ftp://acme.example.com/', clientId: CLIENT_ID }, 'issuer');
    rejects({ issuer: 'https://acme.example.com/?x=/', clientId: CLIENT_ID }, 'issuer');
  });

  test('clientId must be a non-empty string', () => {
    rejects({ issuer }, 'clientId');
    rejects({ issuer, clientId: '' }, 'clientId');
    rejects({ issuer, clientId: ['cli_web'] }, 'clientId');
  });

  test('accept must be a non-empty array of user and client', () => {
    rejects({ issuer, clientId: CLIENT_ID, accept: 'user' }, 'accept');
    rejects({ issuer, clientId: CLIENT_ID, accept: [] }, 'accept');
    rejects({ issuer, clientId: CLIENT_ID, accept: ['user', 'console'] }, 'accept');
  });

  test('trustedClients must be an array of strings when accept includes client', () => {
    rejects(
      { issuer, clientId: CLIENT_ID, accept: ['client'], trustedClients: 'cli_billing' },
      'trustedClients',
    );
    rejects(
      { issuer, clientId: CLIENT_ID, accept: ['user', 'client'], trustedClients: [null] },
      'trustedClients',
    );
  });

  test('trustedClients is not read when accept leaves client out', () => {
    for (const trustedClients of [[null], 'cli_billing']) {
      const options = { issuer, clientId: CLIENT_ID, trustedClients } as unknown;
      assert.equal(typeof createVerifier(options as Parameters<typeof createVerifier>[0]), 'function');
    }
  });

  test('an unknown option (a typo) is named', () => {
    rejects({ issuer, clientId: CLIENT_ID, trustedClient: ['cli_billing'] }, 'trustedClient');
  });

  test("hostOverride is allowed only with a loopback issuer, and only as that issuer's host", () => {
    for (const loopback of [
      'http://acme.localhost:4000/',
      'http://localhost:4000/',
      'http://127.0.0.1:4000/',
    ]) {
      const hostOverride = new URL(loopback).host;
      assert.equal(
        typeof createVerifier({ issuer: loopback, clientId: CLIENT_ID, hostOverride }),
        'function',
      );
    }
    for (const remote of [
      'https://acme.example.com/',
      'http://10.0.0.5:4000/',
      'http://localhost.example.com/',
    ]) {
      const hostOverride = new URL(remote).host;
      assert.throws(() => createVerifier({ issuer: remote, clientId: CLIENT_ID, hostOverride }), {
        name: 'TypeError',
        message: 'createVerifier: "hostOverride" is allowed only when "issuer" is a loopback URL',
      });
    }
    const issuer = 'http://acme.localhost:4000/';
    assert.throws(
      () => createVerifier({ issuer, clientId: CLIENT_ID, hostOverride: 'globex.localhost:4000' }),
      {
        name: 'TypeError',
        message: 'createVerifier: "hostOverride" must be the host (and port) of "issuer"',
      },
    );
    for (const malformed of ['', 'acme.localhost/x?y=', 42]) {
      rejects({ issuer, clientId: CLIENT_ID, hostOverride: malformed }, 'hostOverride');
    }
  });

  test('valid options build a verifier without touching the network', () => {
    assert.equal(typeof createVerifier({ issuer: 'http://127.0.0.1:1/', clientId: CLIENT_ID }), 'function');
  });
});
