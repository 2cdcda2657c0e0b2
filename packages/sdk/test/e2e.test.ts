import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSdk, makeVerifier, type Sdk, type TokenSet } from '@tessera/sdk';
import { decodeJwt } from 'jose';
import { createClient } from '../../server/src/domain/directory/clients.js';
import { createOrg, findOrg } from '../../server/src/domain/directory/orgs.js';
import { insertUserWithTenant, prepareUser } from '../../server/src/domain/directory/users.js';
import { type Org, SYSTEM } from '../../server/src/domain/types.js';
import { makeClient, signInWithIdToken } from '../../server/test/sign-in/support/fixtures.js';
import { startServer, type TestServer } from '../../server/test/support/server.js';
import { assertHides, caught, fieldsOf } from './support/sdk.js';
import { REDIRECT_URI, signIn } from './support/sign-in.js';

const ADA = { email: 'ada@acme.test', password: 'ada long password', firstName: 'Ada', lastName: 'Lovelace' };
const OWNER = { email: 'owner@acme.test', password: 'owner long password' };

describe('the SDK against a running Tessera', () => {
  let server: TestServer;
  let acme: Org;
  let issuer: string;
  let webClientId: string;
  let machine: { clientId: string; clientSecret: string };
  let consoleClientId: string;
  let personalTenantId: string;
  let sdk: Sdk;
  let tokens: TokenSet;

  before(async () => {
    server = await startServer();
    const { deps } = server;
    ({ org: acme, issuer } = await createOrg(deps, {
      slug: 'acme',
      ownerEmail: OWNER.email,
      ownerPassword: OWNER.password,
    }));
    // Another org with another owner: acme's owner is no member of it.
    await createOrg(deps, {
      slug: 'globex',
      ownerEmail: 'owner@globex.test',
      ownerPassword: 'globex long password',
    });
    const web = await createClient(
      deps,
      acme,
      { name: 'Acme web', kind: 'public', redirectUris: [REDIRECT_URI] },
      SYSTEM,
    );
    webClientId = web.client.id;
    const worker = await createClient(
      deps,
      acme,
      { name: 'Acme worker', kind: 'confidential', redirectUris: [] },
      SYSTEM,
    );
    machine = { clientId: worker.client.id, clientSecret: worker.secret ?? '' };
    const consoleOrg = (await findOrg(deps.store, 'console')) ?? assert.fail('no console org');
    const consoleWeb = await createClient(
      deps,
      consoleOrg,
      { name: 'Console web', kind: 'public', redirectUris: [REDIRECT_URI] },
      SYSTEM,
    );
    consoleClientId = consoleWeb.client.id;
    const prepared = await prepareUser(ADA);
    const ada = await deps.unitOfWork.run((trx) => insertUserWithTenant(trx, acme.id, prepared, SYSTEM));
    personalTenantId = ada.tenant.id;
    // The org's own address, as a production app would use it.
    sdk = createSdk({ api: issuer.slice(0, -1), issuer, clientId: webClientId });
  });
  after(() => server?.close());

  it('signs a user in over the hosted forms and redeems the code for a TokenSet', async () => {
    const signedIn = await signIn(sdk, ADA);
    tokens = signedIn.tokens;
    // An org's own client is not asked to consent to the identity scopes (DESIGN §14).
    assert.equal(signedIn.consented, false, 'a first-party client signs in without a consent page');
    assert.deepEqual(
      signedIn.visited.map((u) => new URL(u).pathname),
      ['/oauth/authorize', '/login', '/login'],
    );
    assert.deepEqual(Object.keys(tokens).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'tokenType']);
    assert.equal(tokens.tokenType, 'Bearer');
    assert.equal(tokens.expiresIn, 900);
  });

  it('jwksUri and verify: the token is a user token of this client, in the personal tenant', async () => {
    assert.equal(sdk.jwksUri, `${issuer}.well-known/jwks.json`);
    const keys = (await (await fetch(sdk.jwksUri)).json()) as { keys: unknown[] };
    assert.ok(keys.keys.length > 0);
    const claims = await sdk.verify(tokens.accessToken);
    assert.equal(claims.typ, 'user');
    assert.equal(claims.iss, issuer);
    assert.equal(claims.aud, webClientId);
    assert.match(claims.sub ?? '', /^usr_/);
    assert.equal(claims.tnt, personalTenantId);
  });

  it('verify refuses an ID token of a real sign-in, though its iss and aud are the access token’s', async () => {
    const { clientId } = await makeClient(server.deps, acme, { name: 'Acme OpenID app' });
    const verify = makeVerifier({ issuer, clientId, jwksUri: sdk.jwksUri });
    const { accessToken, idToken } = await signInWithIdToken(issuer, clientId, ADA);
    const id = decodeJwt(idToken);
    assert.deepEqual([id.iss, id.aud], [issuer, clientId]);
    assert.equal((await verify(accessToken)).aud, clientId);
    assert.deepEqual(fieldsOf(await caught(verify(idToken))), {
      status: 0,
      code: 'invalid_token',
      detail: 'the header "typ" is not at+jwt',
    });
  });

  it('users.me returns the User record', async () => {
    assert.deepEqual(await sdk.users.me(tokens.accessToken), {
      email: ADA.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      picture: null,
      provider: 'password',
    });
  });

  it('tenants.create, update and list, token.switchTenant into the new tenant and back, tenants.delete', async () => {
    const token = tokens.accessToken;
    assert.deepEqual(await sdk.tenants.list(token), [
      { id: personalTenantId, name: 'Personal', role: 'owner', logo: null },
    ]);
    const created = await sdk.tenants.create(token, 'Acme EU');
    assert.deepEqual({ ...created, id: '' }, { id: '', name: 'Acme EU', role: 'owner', logo: null });
    assert.match(created.id, /^tnt_/);
    const logo = 'https://cdn.example.com/acme-eu.png';
    assert.deepEqual(await sdk.tenants.update(token, created.id, { name: 'Acme Europe', logo }), {
      id: created.id,
      name: 'Acme Europe',
      role: 'owner',
      logo,
    });
    assert.equal((await sdk.tenants.update(token, created.id, { logo: null })).logo, null);
    assert.equal((await sdk.tenants.list(token)).length, 2);

    tokens = await sdk.token.switchTenant({ accessToken: tokens.accessToken, tenantId: created.id });
    assert.equal((await sdk.verify(tokens.accessToken)).tnt, created.id);
    assert.ok(tokens.refreshToken);
    tokens = await sdk.token.switchTenant({ accessToken: tokens.accessToken, tenantId: personalTenantId });
    assert.equal((await sdk.verify(tokens.accessToken)).tnt, personalTenantId);

    const foreign = await caught(
      sdk.token.switchTenant({ accessToken: tokens.accessToken, tenantId: 'tnt_nope' }),
    );
    assert.deepEqual([foreign.status, foreign.code], [400, 'invalid_grant']);
    assertHides(foreign, [tokens.accessToken]);

    assert.equal(await sdk.tenants.delete(tokens.accessToken, created.id), undefined);
    assert.deepEqual(
      (await sdk.tenants.list(tokens.accessToken)).map((t) => t.id),
      [personalTenantId],
    );
    const gone = await caught(sdk.tenants.delete(tokens.accessToken, created.id));
    assert.deepEqual([gone.status, gone.code, gone.detail], [404, 'not_found', 'no such tenant']);
  });

  it('profile.session returns a key for the hosted profile page', async () => {
    const { key } = await sdk.profile.session(tokens.accessToken);
    assert.equal(typeof key, 'string');
    assert.ok(key.length >= 20);
  });

  it('token.refresh rotates the refresh token; revoke ends the session', async () => {
    const before = tokens;
    tokens = await sdk.token.refresh({ refreshToken: before.refreshToken ?? '' });
    assert.notEqual(tokens.refreshToken, before.refreshToken);
    assert.equal((await sdk.verify(tokens.accessToken)).sub, (await sdk.verify(before.accessToken)).sub);

    assert.equal(await sdk.revoke({ token: tokens.refreshToken ?? '' }), undefined);
    const refused = await caught(sdk.token.refresh({ refreshToken: tokens.refreshToken ?? '' }));
    assert.deepEqual([refused.status, refused.code], [400, 'invalid_grant']);
    assertHides(refused, [tokens.refreshToken ?? '']);
  });

  it('real error answers become SdkErrors with the server code and detail', async () => {
    const forged = `${tokens.accessToken.slice(0, -4)}AAAA`;
    const unauthorized = await caught(sdk.users.me(forged));
    assert.deepEqual(
      [unauthorized.status, unauthorized.code, unauthorized.detail],
      [401, 'unauthorized', "we don't know who you are"],
    );
    assertHides(unauthorized, [forged]);
    const { tokens: fresh, code } = await signIn(sdk, ADA);
    const invalid = await caught(sdk.tenants.create(fresh.accessToken, 'x'.repeat(201)));
    assert.deepEqual([invalid.status, invalid.code], [400, 'invalid_body']);
    assert.match(invalid.detail ?? '', /name/);

    // A code is single use; presenting it again also ends the session it started.
    const verifier = 'v'.repeat(43);
    const reuse = await caught(
      sdk.token.authorizationCode({ code, redirectUri: REDIRECT_URI, codeVerifier: verifier }),
    );
    assert.deepEqual([reuse.status, reuse.code], [400, 'invalid_grant']);
    assertHides(reuse, [code, verifier]);
    assert.equal((await caught(sdk.users.me(fresh.accessToken))).status, 401);
  });

  it('token.clientCredentials issues a machine token; a wrong secret is refused without showing it', async () => {
    const set = await sdk.token.clientCredentials(machine);
    assert.deepEqual(Object.keys(set).sort(), ['accessToken', 'expiresIn', 'tokenType']);
    const verifyMachine = makeVerifier({ issuer, clientId: machine.clientId, jwksUri: sdk.jwksUri });
    const claims = await verifyMachine(set.accessToken);
    assert.deepEqual([claims.typ, claims.sub, claims.aud], ['client', machine.clientId, machine.clientId]);
    await assert.rejects(sdk.verify(set.accessToken), { name: 'SdkError', code: 'invalid_token' });

    const wrong = `${machine.clientSecret}x`;
    const err = await caught(
      sdk.token.clientCredentials({ clientId: machine.clientId, clientSecret: wrong }),
    );
    assert.deepEqual([err.status, err.code], [401, 'invalid_client']);
    assertHides(err, [wrong, machine.clientSecret]);
  });

  it('a confidential web client authenticates with its secret on every token and revocation request', async () => {
    const app = await createClient(
      server.deps,
      acme,
      { name: 'Acme server app', kind: 'confidential', redirectUris: [REDIRECT_URI] },
      SYSTEM,
    );
    const clientSecret = app.secret ?? '';
    const confidential = createSdk({ api: issuer.slice(0, -1), issuer, clientId: app.client.id });
    const { tokens: first, code } = await signIn(confidential, ADA, clientSecret);
    let set = await confidential.token.refresh({ refreshToken: first.refreshToken ?? '', clientSecret });
    set = await confidential.token.switchTenant({
      accessToken: set.accessToken,
      tenantId: personalTenantId,
      clientSecret,
    });
    assert.equal((await confidential.verify(set.accessToken)).aud, app.client.id);
    assert.equal(await confidential.revoke({ token: set.refreshToken ?? '', clientSecret }), undefined);
    const ended = await caught(
      confidential.token.refresh({ refreshToken: set.refreshToken ?? '', clientSecret }),
    );
    assert.deepEqual([ended.status, ended.code], [400, 'invalid_grant']);
    assertHides(ended, [clientSecret, set.refreshToken ?? '', code]);
    // Without its secret, a confidential client is refused at the token endpoint.
    const unauthenticated = await caught(
      confidential.token.refresh({ refreshToken: set.refreshToken ?? '' }),
    );
    assert.deepEqual([unauthenticated.status, unauthenticated.code], [401, 'invalid_client']);
  });

  it('organizations.get with a console token: the membership, or null when not a member', async () => {
    const base = server.base;
    const consoleSdk = createSdk({ api: base, issuer: `${base}/`, clientId: consoleClientId });
    const { tokens: console } = await signIn(consoleSdk, OWNER);
    assert.equal((await consoleSdk.verify(console.accessToken)).typ, 'console');
    assert.deepEqual(await consoleSdk.organizations.get(console.accessToken, 'acme'), {
      id: acme.id,
      slug: 'acme',
      role: 'owner',
    });
    assert.equal(await consoleSdk.organizations.get(console.accessToken, 'globex'), null);
    assert.equal(await consoleSdk.organizations.get(console.accessToken, 'no-such-org'), null);
    // A user token of an org is not a console token.
    const { tokens: user } = await signIn(sdk, ADA);
    const refused = await caught(consoleSdk.organizations.get(user.accessToken, 'acme'));
    assert.equal(refused.status, 401);
  });

  it('hostOverride: the same sign-in and calls against the loopback API with ?host=', async () => {
    const host = new URL(issuer).host;
    const dev = createSdk({ api: server.base, issuer, clientId: webClientId, hostOverride: host });
    assert.equal(dev.jwksUri, `${server.base}/.well-known/jwks.json?host=${encodeURIComponent(host)}`);
    const { tokens: set, visited } = await signIn(dev, ADA);
    assert.ok(visited.every((u) => new URL(u).host === new URL(server.base).host && u.includes('host=')));
    assert.equal((await dev.verify(set.accessToken)).tnt, personalTenantId);
    assert.equal((await dev.users.me(set.accessToken)).email, ADA.email);
    assert.deepEqual(
      (await dev.tenants.list(set.accessToken)).map((t) => t.id),
      [personalTenantId],
    );
    const next = await dev.token.refresh({ refreshToken: set.refreshToken ?? '' });
    assert.equal(await dev.revoke({ token: next.refreshToken ?? '' }), undefined);
  });
});
