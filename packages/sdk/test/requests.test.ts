import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeApi, json, type Recorded, startFakeApi } from './support/fake-api.js';
import { CLIENT_ID, sdkFor } from './support/sdk.js';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln';
const TOKEN_RESPONSE = {
  access_token: 'at_new',
  token_type: 'Bearer',
  expires_in: 900,
  refresh_token: 'rt_new',
};
const SWITCH_URN = 'urn:service:params:oauth:grant-type:switch-tenant';

/** The form of a recorded request as a plain object, so a test states the exact set of fields sent. */
const formOf = (r: Recorded) => Object.fromEntries(r.form);

/** Where a secret may appear: in the body, and nowhere in the URL or any header. */
function assertOnlyInBody(r: Recorded, secret: string) {
  assert.ok(r.body.includes(secret), 'the secret is in the body');
  assert.ok(!r.url.includes(secret), 'the secret is not in the URL');
  for (const [name, value] of Object.entries(r.headers)) {
    assert.ok(!String(value).includes(secret), `the secret is not in header ${name}`);
  }
}

describe('token requests', () => {
  let api: FakeApi;
  before(async () => {
    api = await startFakeApi(() => json(200, TOKEN_RESPONSE));
  });
  after(() => api.close());

  it('authorizationCode posts a form with client_id, code, redirect_uri, code_verifier and client_secret', async () => {
    const tokens = await sdkFor(api).token.authorizationCode({
      code: 'code_1',
      redirectUri: 'https://app.example.com/cb',
      codeVerifier: 'v'.repeat(43),
      clientSecret: 'tcs_secret',
    });
    assert.deepEqual(tokens, {
      accessToken: 'at_new',
      tokenType: 'Bearer',
      expiresIn: 900,
      refreshToken: 'rt_new',
    });
    const r = api.last();
    assert.equal(r.method, 'POST');
    assert.equal(r.url, '/oauth/token');
    assert.equal(r.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(r.headers.authorization, undefined);
    assert.deepEqual(formOf(r), {
      grant_type: 'authorization_code',
      code: 'code_1',
      redirect_uri: 'https://app.example.com/cb',
      code_verifier: 'v'.repeat(43),
      client_id: CLIENT_ID,
      client_secret: 'tcs_secret',
    });
    assertOnlyInBody(r, 'tcs_secret');
  });

  it('leaves optional fields out rather than sending them empty', async () => {
    await sdkFor(api).token.authorizationCode({ code: 'code_1', redirectUri: 'https://app.example.com/cb' });
    assert.deepEqual(formOf(api.last()), {
      grant_type: 'authorization_code',
      code: 'code_1',
      redirect_uri: 'https://app.example.com/cb',
      client_id: CLIENT_ID,
    });
    await sdkFor(api).token.refresh({ refreshToken: 'rt_1' });
    assert.deepEqual(formOf(api.last()), {
      grant_type: 'refresh_token',
      refresh_token: 'rt_1',
      client_id: CLIENT_ID,
    });
  });

  it('refresh sends the refresh token and a confidential secret in the body only', async () => {
    await sdkFor(api).token.refresh({ refreshToken: 'rt_1', clientSecret: 'tcs_secret' });
    const r = api.last();
    assert.deepEqual(formOf(r), {
      grant_type: 'refresh_token',
      refresh_token: 'rt_1',
      client_id: CLIENT_ID,
      client_secret: 'tcs_secret',
    });
    assertOnlyInBody(r, 'tcs_secret');
    assertOnlyInBody(r, 'rt_1');
  });

  it('switchTenant uses the spec URN by default, with access_token and tenant_id in the body', async () => {
    await sdkFor(api).token.switchTenant({ accessToken: TOKEN, tenantId: 'tnt_2' });
    const r = api.last();
    assert.deepEqual(formOf(r), {
      grant_type: SWITCH_URN,
      access_token: TOKEN,
      tenant_id: 'tnt_2',
      client_id: CLIENT_ID,
    });
    assertOnlyInBody(r, TOKEN);
  });

  it('switchTenant sends a confidential client secret in the body only', async () => {
    await sdkFor(api).token.switchTenant({
      accessToken: TOKEN,
      tenantId: 'tnt_2',
      clientSecret: 'tcs_secret',
    });
    const r = api.last();
    assert.equal(r.form.get('client_secret'), 'tcs_secret');
    assertOnlyInBody(r, 'tcs_secret');
  });

  it('switchTenant uses a configured grant type instead', async () => {
    const urn = 'urn:example:params:oauth:grant-type:tenant';
    await sdkFor(api, { switchTenantGrant: urn }).token.switchTenant({
      accessToken: TOKEN,
      tenantId: 'tnt_2',
    });
    assert.equal(api.last().form.get('grant_type'), urn);
  });

  it('clientCredentials sends its own client id, and the secret in the body only', async () => {
    api.handler = () => json(200, { access_token: 'at_m', token_type: 'Bearer', expires_in: 900 });
    const tokens = await sdkFor(api).token.clientCredentials({
      clientId: 'cli_machine',
      clientSecret: 'tcs_m',
    });
    assert.deepEqual(tokens, { accessToken: 'at_m', tokenType: 'Bearer', expiresIn: 900 });
    const r = api.last();
    assert.deepEqual(formOf(r), {
      grant_type: 'client_credentials',
      client_id: 'cli_machine',
      client_secret: 'tcs_m',
    });
    assertOnlyInBody(r, 'tcs_m');
    api.handler = () => json(200, TOKEN_RESPONSE);
  });

  it('resource (RFC 8707) and scope travel in the body of the grants that take them', async () => {
    const resource = 'https://files.example.com/mcp';
    await sdkFor(api).token.authorizationCode({
      code: 'code_1',
      redirectUri: 'https://app.example.com/cb',
      resource,
    });
    assert.deepEqual(formOf(api.last()), {
      grant_type: 'authorization_code',
      code: 'code_1',
      redirect_uri: 'https://app.example.com/cb',
      resource,
      client_id: CLIENT_ID,
    });
    await sdkFor(api).token.refresh({ refreshToken: 'rt_1', resource, scope: 'files:read' });
    assert.deepEqual(formOf(api.last()), {
      grant_type: 'refresh_token',
      refresh_token: 'rt_1',
      resource,
      scope: 'files:read',
      client_id: CLIENT_ID,
    });
    api.handler = () => json(200, { access_token: 'at_m', token_type: 'Bearer', expires_in: 900 });
    await sdkFor(api).token.clientCredentials({
      clientId: 'cli_machine',
      clientSecret: 'tcs_m',
      resource,
      scope: 'files:read files:write',
    });
    assert.deepEqual(formOf(api.last()), {
      grant_type: 'client_credentials',
      resource,
      scope: 'files:read files:write',
      client_id: 'cli_machine',
      client_secret: 'tcs_m',
    });
    api.handler = () => json(200, TOKEN_RESPONSE);
    await assert.rejects(
      sdkFor(api).token.refresh({ refreshToken: 'rt_1', resource: 42 as never }),
      (err: unknown) => err instanceof TypeError && err.message.includes('resource'),
    );
  });

  it('revoke posts token and client_id, and resolves to undefined on a 200 without body', async () => {
    api.handler = () => ({ status: 200 });
    assert.equal(await sdkFor(api).revoke({ token: 'rt_1' }), undefined);
    const r = api.last();
    assert.equal(r.url, '/oauth/revoke');
    assert.deepEqual(formOf(r), { token: 'rt_1', client_id: CLIENT_ID });
    await sdkFor(api).revoke({ token: 'rt_1', clientSecret: 'tcs_secret' });
    assert.deepEqual(formOf(api.last()), {
      token: 'rt_1',
      client_id: CLIENT_ID,
      client_secret: 'tcs_secret',
    });
    assertOnlyInBody(api.last(), 'tcs_secret');
    assertOnlyInBody(api.last(), 'rt_1');
    api.handler = () => json(200, TOKEN_RESPONSE);
  });
});

describe('API calls', () => {
  let api: FakeApi;
  const answers = new Map<string, () => ReturnType<typeof json>>();
  before(async () => {
    api = await startFakeApi(
      (r) => answers.get(`${r.method} ${r.path}`)?.() ?? json(404, { error: 'not_found' }),
    );
  });
  beforeEach(() => answers.clear());
  after(() => api.close());

  it('send the bearer, and return exactly the spec record fields', async () => {
    const sdk = sdkFor(api);
    answers.set('GET /users/me', () =>
      json(200, {
        id: 'usr_1',
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'L',
        picture: null,
        provider: 'password',
      }),
    );
    assert.deepEqual(await sdk.users.me(TOKEN), {
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'L',
      picture: null,
      provider: 'password',
    });
    assert.equal(api.last().headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(api.last().headers.cookie, undefined);

    answers.set('GET /tenants', () =>
      json(200, [{ id: 'tnt_1', name: 'Personal', role: 'owner', logo: null, extra: 1 }]),
    );
    assert.deepEqual(await sdk.tenants.list(TOKEN), [
      { id: 'tnt_1', name: 'Personal', role: 'owner', logo: null },
    ]);

    answers.set('GET /organizations/acme', () =>
      json(200, { id: 'org_1', slug: 'acme', role: 'owner', name: 'Acme' }),
    );
    assert.deepEqual(await sdk.organizations.get(TOKEN, 'acme'), {
      id: 'org_1',
      slug: 'acme',
      role: 'owner',
    });

    answers.set('POST /profile/session', () => json(200, { key: 'pk_1' }));
    assert.deepEqual(await sdk.profile.session(TOKEN), { key: 'pk_1' });
    assert.equal(api.last().method, 'POST');
    assert.equal(api.last().body, '');
  });

  it('tenants.create, update and delete send JSON bodies and the methods of the contract', async () => {
    const sdk = sdkFor(api);
    const tenant = { id: 'tnt_9', name: 'Globex', role: 'owner', logo: null };
    answers.set('POST /tenants', () => json(201, tenant));
    assert.deepEqual(await sdk.tenants.create(TOKEN, 'Globex'), tenant);
    assert.equal(api.last().headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(api.last().body), { name: 'Globex' });

    answers.set('PATCH /tenants/tnt_9', () =>
      json(200, { ...tenant, logo: 'https://cdn.example.com/l.png' }),
    );
    const updated = await sdk.tenants.update(TOKEN, 'tnt_9', { logo: 'https://cdn.example.com/l.png' });
    assert.equal(updated.logo, 'https://cdn.example.com/l.png');
    assert.deepEqual(JSON.parse(api.last().body), { logo: 'https://cdn.example.com/l.png' });
    await sdk.tenants.update(TOKEN, 'tnt_9', { name: 'Globex EU', logo: null });
    assert.deepEqual(JSON.parse(api.last().body), { name: 'Globex EU', logo: null });

    answers.set('DELETE /tenants/tnt_9', () => ({ status: 204 }));
    assert.equal(await sdk.tenants.delete(TOKEN, 'tnt_9'), undefined);
    assert.equal(api.last().method, 'DELETE');
    assert.equal(api.last().headers.authorization, `Bearer ${TOKEN}`);
  });

  it('percent-encodes path segments, so an id cannot address another route', async () => {
    const sdk = sdkFor(api);
    await sdk.tenants.delete(TOKEN, '../users/me').catch(() => undefined);
    assert.equal(api.last().url, '/tenants/..%2Fusers%2Fme');
    await sdk.organizations.get(TOKEN, 'a b?c');
    assert.equal(api.last().url, '/organizations/a%20b%3Fc');
  });
});

describe('hostOverride', () => {
  let api: FakeApi;
  before(async () => {
    api = await startFakeApi(() => json(200, TOKEN_RESPONSE));
  });
  after(() => api.close());

  it('adds host= to every request, the key-set address and the authorization URL', async () => {
    const sdk = sdkFor(api, { hostOverride: 'acme.localhost:4000' });
    const calls: (() => Promise<unknown>)[] = [
      () => sdk.token.authorizationCode({ code: 'c', redirectUri: 'http://localhost/cb' }),
      () => sdk.token.refresh({ refreshToken: 'r' }),
      () => sdk.token.switchTenant({ accessToken: TOKEN, tenantId: 'tnt_1' }),
      () => sdk.token.clientCredentials({ clientId: 'cli_m', clientSecret: 's' }),
      () => sdk.revoke({ token: 'r' }),
      () => sdk.users.me(TOKEN),
      () => sdk.tenants.list(TOKEN),
      () => sdk.tenants.create(TOKEN, 'A'),
      () => sdk.tenants.update(TOKEN, 'tnt_1', { name: 'B' }),
      () => sdk.tenants.delete(TOKEN, 'tnt_1'),
      () => sdk.organizations.get(TOKEN, 'acme'),
      () => sdk.profile.session(TOKEN),
    ];
    for (const call of calls) {
      await call().catch(() => undefined);
      const r = api.last();
      assert.deepEqual([...r.query], [['host', 'acme.localhost:4000']], `${r.method} ${r.path}`);
    }
    assert.equal(api.requests.length, calls.length);
    assert.equal(sdk.jwksUri, `${api.base}/.well-known/jwks.json?host=acme.localhost%3A4000`);
    const url = new URL(
      sdk.authorizationUrl({ redirectUri: 'http://localhost/cb', codeChallenge: 'c', state: 's' }),
    );
    assert.equal(url.searchParams.get('host'), 'acme.localhost:4000');
  });

  it('is absent without the option: jwksUri is exactly {api}/.well-known/jwks.json', () => {
    assert.equal(sdkFor(api).jwksUri, `${api.base}/.well-known/jwks.json`);
  });
});
