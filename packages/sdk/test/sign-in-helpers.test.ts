import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { challengeOf, createPkce, createSdk, createState } from '@tessera/sdk';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

describe('PKCE helper', () => {
  it('matches the RFC 7636 appendix B example', async () => {
    assert.equal(
      await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('creates a 43-character base64url verifier and its S256 challenge', async () => {
    const pkce = await createPkce();
    assert.equal(pkce.codeVerifier.length, 43);
    assert.match(pkce.codeVerifier, BASE64URL);
    assert.equal(pkce.codeChallengeMethod, 'S256');
    assert.equal(pkce.codeChallenge, createHash('sha256').update(pkce.codeVerifier).digest('base64url'));
  });

  it('never repeats a verifier or a state', async () => {
    const verifiers = new Set(
      await Promise.all(Array.from({ length: 50 }, async () => (await createPkce()).codeVerifier)),
    );
    const states = new Set(Array.from({ length: 50 }, createState));
    assert.equal(verifiers.size, 50);
    assert.equal(states.size, 50);
    for (const state of states) assert.match(state, /^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a verifier outside RFC 7636 §4.1', async () => {
    await assert.rejects(challengeOf('short'), { name: 'TypeError' });
    await assert.rejects(challengeOf('x'.repeat(129)), { name: 'TypeError' });
    await assert.rejects(challengeOf(`${'x'.repeat(42)}+`), { name: 'TypeError' });
  });
});

describe('authorization URL builder', () => {
  const sdk = createSdk({
    api: 'https://acme.auth.example.com',
    issuer: 'https://acme.auth.example.com/',
    clientId: 'cli_web',
  });

  it('builds the authorize request with response_type, client_id, redirect_uri, S256 challenge and state', () => {
    const url = new URL(
      sdk.authorizationUrl({
        redirectUri: 'https://app.example.com/cb?x=1',
        codeChallenge: 'ch',
        state: 'st',
      }),
    );
    assert.equal(url.origin + url.pathname, 'https://acme.auth.example.com/oauth/authorize');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      response_type: 'code',
      client_id: 'cli_web',
      redirect_uri: 'https://app.example.com/cb?x=1',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
      state: 'st',
    });
  });

  it('adds scope and resource when given', () => {
    const url = new URL(
      sdk.authorizationUrl({
        redirectUri: 'https://app.example.com/cb',
        codeChallenge: 'ch',
        state: 'st',
        scope: 'openid profile',
        resource: 'https://api.example.com',
      }),
    );
    assert.equal(url.searchParams.get('scope'), 'openid profile');
    assert.equal(url.searchParams.get('resource'), 'https://api.example.com');
  });

  it('puts host last under a hostOverride', () => {
    const dev = createSdk({
      api: 'http://localhost:4000',
      issuer: 'http://acme.localhost:4000/',
      clientId: 'cli_web',
      hostOverride: 'acme.localhost:4000',
    });
    const url = new URL(
      dev.authorizationUrl({ redirectUri: 'http://localhost:3000/cb', codeChallenge: 'c', state: 's' }),
    );
    assert.equal(url.origin, 'http://localhost:4000');
    assert.deepEqual([...url.searchParams.keys()].at(-1), 'host');
    assert.equal(url.searchParams.get('host'), 'acme.localhost:4000');
  });

  it('refuses a missing state or challenge', () => {
    assert.throws(
      () =>
        sdk.authorizationUrl({ redirectUri: 'https://app.example.com/cb', codeChallenge: 'c', state: '' }),
      {
        name: 'TypeError',
        message: 'authorizationUrl: "state" must be a non-empty string',
      },
    );
    assert.throws(
      () => sdk.authorizationUrl({ redirectUri: 'https://app.example.com/cb', state: 's' } as never),
      /"codeChallenge"/,
    );
  });
});
