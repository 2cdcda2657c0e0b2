import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSdk, SdkError } from '@tessera/sdk';
import { closedPort, type FakeApi, json, startFakeApi } from './support/fake-api.js';
import { CLIENT_ID, caught, fieldsOf, sdkFor } from './support/sdk.js';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln';

describe('SdkError mapping of non-2xx answers', () => {
  let api: FakeApi;
  before(async () => {
    api = await startFakeApi();
  });
  after(() => api.close());

  const cases = [
    [400, 'invalid_body', 'name must be 1 to 100 characters'],
    [401, 'unauthorized', "we don't know who you are"],
    [403, 'forbidden', 'only an owner of the tenant can do this'],
    [404, 'not_found', 'no such tenant'],
    [429, 'rate_limited', 'too many requests; try again in a minute'],
    [500, 'server_error', 'something went wrong on our side'],
  ] as const;

  for (const [status, code, detail] of cases) {
    it(`maps ${status} {error, error_detail} to status, code and detail`, async () => {
      api.handler = () => json(status, { error: code, error_detail: detail });
      const err = await caught(sdkFor(api).tenants.update(TOKEN, 'tnt_1', { name: 'x' }));
      assert.deepEqual(fieldsOf(err), { status, code, detail });
      assert.ok(err instanceof Error);
      assert.equal(err.name, 'SdkError');
      assert.equal(err.message, `Tessera answered ${status} ${code} to PATCH /tenants/tnt_1: ${detail}`);
    });
  }

  it('maps an OAuth error body: detail is error_description when there is no error_detail', async () => {
    api.handler = () => json(400, { error: 'invalid_grant', error_description: 'the code has expired' });
    const err = await caught(sdkFor(api).token.refresh({ refreshToken: 'rt_1' }));
    assert.deepEqual(fieldsOf(err), { status: 400, code: 'invalid_grant', detail: 'the code has expired' });
  });

  it('prefers error_detail over error_description', async () => {
    api.handler = () => json(400, { error: 'invalid_request', error_detail: 'd', error_description: 'x' });
    const err = await caught(sdkFor(api).users.me(TOKEN));
    assert.deepEqual(fieldsOf(err), { status: 400, code: 'invalid_request', detail: 'd' });
  });

  it('carries the server’s Tessera-Error-Code as situation, the body’s fields unchanged', async () => {
    const body = { error: 'invalid_grant', error_description: 'the refresh token was already used' };
    api.handler = () => json(400, body, { 'tessera-error-code': 'token.refresh.reused' });
    const err = await caught(sdkFor(api).token.refresh({ refreshToken: 'rt_1' }));
    assert.deepEqual(fieldsOf(err), { status: 400, code: 'invalid_grant', detail: body.error_description });
    assert.equal(err.situation, 'token.refresh.reused');
  });

  it('leaves situation undefined when the header is absent, not a code, or echoes what the call sent', async () => {
    for (const [header, expected] of [
      [undefined, undefined],
      ['Token.Refresh.Reused', undefined],
      ['token', undefined],
      ['token.refresh.reused; x=1', undefined],
      [`a.${'b'.repeat(120)}`, undefined],
      ['org.not_found', 'org.not_found'],
    ] as const) {
      const headers: Record<string, string> = header === undefined ? {} : { 'tessera-error-code': header };
      api.handler = () => json(404, { error: 'not_found' }, headers);
      const err = await caught(sdkFor(api).users.me(TOKEN));
      assert.equal(err.situation, expected, String(header));
    }
    // A secret the call sent that happens to look like a code is never kept.
    api.handler = () => json(401, { error: 'invalid_client' }, { 'tessera-error-code': 'shh.secret' });
    const err = await caught(
      sdkFor(api).token.clientCredentials({ clientId: 'cli_m', clientSecret: 'shh.secret' }),
    );
    assert.equal(err.situation, undefined);
  });

  it('maps a 429 without any detail to an undefined detail', async () => {
    api.handler = () => json(429, { error: 'rate_limited' }, { 'retry-after': '60' });
    const err = await caught(sdkFor(api).token.clientCredentials({ clientId: 'cli_m', clientSecret: 's' }));
    assert.deepEqual(fieldsOf(err), { status: 429, code: 'rate_limited', detail: undefined });
    assert.equal(err.message, 'Tessera answered 429 rate_limited to POST /oauth/token');
  });

  it('maps an HTML 502 from a proxy to http_error with no detail', async () => {
    api.handler = () => ({
      status: 502,
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
      headers: { 'content-type': 'text/html' },
    });
    const err = await caught(sdkFor(api).tenants.list(TOKEN));
    assert.deepEqual(fieldsOf(err), { status: 502, code: 'http_error', detail: undefined });
    assert.equal(err.message, 'Tessera answered 502 http_error to GET /tenants');
  });

  it('maps an empty 500 body to http_error with no detail', async () => {
    api.handler = () => ({ status: 500 });
    const err = await caught(sdkFor(api).profile.session(TOKEN));
    assert.deepEqual(fieldsOf(err), { status: 500, code: 'http_error', detail: undefined });
  });

  it('maps a body labelled JSON that does not parse, and JSON without a string error, to http_error', async () => {
    api.handler = () => ({ status: 503, body: '{"error":', headers: { 'content-type': 'application/json' } });
    assert.deepEqual(fieldsOf(await caught(sdkFor(api).users.me(TOKEN))), {
      status: 503,
      code: 'http_error',
      detail: undefined,
    });
    api.handler = () => json(400, { error: 42, error_detail: 'name is required' });
    assert.deepEqual(fieldsOf(await caught(sdkFor(api).users.me(TOKEN))), {
      status: 400,
      code: 'http_error',
      detail: 'name is required',
    });
  });

  it('does not follow a redirect: it is a non-2xx answer, and the target is never requested', async () => {
    api.handler = (req) =>
      req.path === '/oauth/token'
        ? { status: 307, headers: { location: `${api.base}/elsewhere` } }
        : json(200, { access_token: 'stolen', token_type: 'Bearer' });
    const before = api.requests.length;
    const err = await caught(sdkFor(api).token.clientCredentials({ clientId: 'cli_m', clientSecret: 's' }));
    assert.deepEqual(fieldsOf(err), {
      status: 307,
      code: 'http_error',
      detail: 'the server redirected, and the SDK does not follow redirects',
    });
    assert.equal(api.requests.length, before + 1);
  });

  it('throws invalid_response when a 2xx body is not the promised record', async () => {
    api.handler = () => json(200, { access_token: 'at' });
    const err = await caught(sdkFor(api).token.refresh({ refreshToken: 'rt_1' }));
    assert.deepEqual(fieldsOf(err), {
      status: 200,
      code: 'invalid_response',
      detail: 'the body is not a token response',
    });
    api.handler = () => ({ status: 200, body: '<html></html>', headers: { 'content-type': 'text/html' } });
    assert.equal((await caught(sdkFor(api).tenants.list(TOKEN))).code, 'invalid_response');
    api.handler = () => json(201, [{ id: 'tnt_1', name: 'A', role: 'owner', logo: 7 }]);
    assert.equal((await caught(sdkFor(api).tenants.list(TOKEN))).code, 'invalid_response');
  });

  it('organizations.get: 404 is null, any other failure throws', async () => {
    api.handler = () => json(404, { error: 'not_found', error_detail: 'no such organization' });
    assert.equal(await sdkFor(api).organizations.get(TOKEN, 'globex'), null);
    api.handler = () => json(401, { error: 'unauthorized', error_detail: "we don't know who you are" });
    assert.equal((await caught(sdkFor(api).organizations.get(TOKEN, 'globex'))).status, 401);
    api.handler = () => json(500, { error: 'server_error' });
    assert.equal((await caught(sdkFor(api).organizations.get(TOKEN, 'globex'))).status, 500);
  });
});

describe('SdkError for network failures', () => {
  it('a closed port is status 0, network_error, with only the errno code as cause', async () => {
    const port = await closedPort();
    const sdk = createSdk({
      api: `http://127.0.0.1:${port}`,
      issuer: 'http://127.0.0.1/',
      clientId: CLIENT_ID,
    });
    const err = await caught(sdk.token.refresh({ refreshToken: 'rt_1' }));
    assert.deepEqual(fieldsOf(err), { status: 0, code: 'network_error', detail: 'the connection failed' });
    assert.equal(err.situation, undefined);
    assert.equal(err.message, 'Tessera could not be reached for POST /oauth/token: the connection failed');
    assert.ok(err.cause instanceof Error);
    assert.match(err.cause.message, /ECONNREFUSED/);
  });

  it('every member fails with an SdkError, never a raw fetch TypeError', async () => {
    const port = await closedPort();
    const sdk = createSdk({
      api: `http://127.0.0.1:${port}`,
      issuer: 'http://127.0.0.1/',
      clientId: CLIENT_ID,
    });
    const calls: (() => Promise<unknown>)[] = [
      () => sdk.token.authorizationCode({ code: 'c', redirectUri: 'http://127.0.0.1/cb' }),
      () => sdk.token.switchTenant({ accessToken: TOKEN, tenantId: 'tnt_1' }),
      () => sdk.revoke({ token: 'rt_1' }),
      () => sdk.users.me(TOKEN),
      () => sdk.tenants.create(TOKEN, 'A'),
      () => sdk.tenants.delete(TOKEN, 'tnt_1'),
      () => sdk.organizations.get(TOKEN, 'acme'),
    ];
    for (const call of calls) {
      const err = await caught(call());
      assert.equal(err.status, 0);
      assert.equal(err.code, 'network_error');
    }
  });
});

describe('caller misuse', () => {
  it('is a TypeError naming the argument, rejected rather than thrown synchronously', async () => {
    const sdk = createSdk({ api: 'http://127.0.0.1:9', issuer: 'http://127.0.0.1/', clientId: CLIENT_ID });
    const pending = sdk.users.me('');
    await assert.rejects(pending, {
      name: 'TypeError',
      message: 'users.me: "token" must be a non-empty string',
    });
    await assert.rejects(sdk.tenants.update(TOKEN, 'tnt_1', { logo: 3 as unknown as string }), {
      name: 'TypeError',
      message: 'tenants.update: "changes.logo" must be a string or null',
    });
    await assert.rejects(sdk.token.refresh(undefined as never), {
      name: 'TypeError',
      message: 'token.refresh: "params" must be an object',
    });
    await assert.rejects(sdk.token.refresh({ refreshToken: '' }), (err) => !(err instanceof SdkError));
  });
});
