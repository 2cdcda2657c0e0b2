import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test as nodeTest } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { clock } from '../../src/domain/clock.js';
import { clientFromDocument } from '../../src/domain/directory/client-metadata-documents.js';
import { updateOrgSettings } from '../../src/domain/directory/org-settings.js';
import { createConnection } from '../../src/domain/federation/connections.js';
import { createApiResource } from '../../src/domain/resources/api-resources.js';
import { createRole } from '../../src/domain/resources/roles.js';
import { setRolesOfUser } from '../../src/domain/resources/user-roles.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { axeAnalysis } from '../console/support/console-browser.js';
import { ClaimsUpstream } from '../federation/support/claims-upstream.js';
import {
  recoveryCodesOnPage,
  secretOnPage,
  totpCode,
  walk,
} from '../second-factor-and-delegation/support.js';
import { launchChromium } from '../support/chromium.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
import { screenshot } from '../support/screenshot.js';
import { startServer, type TestServer } from '../support/server.js';
import { killGroup, spawnGroup } from '../support/tessera-process.js';
import { FormBrowser, locationOf, readForm } from './support/browser.js';
import {
  answerThroughPages,
  DEVICE_GRANT,
  enterCode,
  follow,
  poll,
  postForm,
  startDevice,
} from './support/device-flow.js';
import { freezeClock, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

const RESULTS = fileURLToPath(new URL('../../../../test-results/', import.meta.url));

/** Debian's python3 with oauthlib (python3-oauthlib) and requests, or null. */
function pythonWithOauthlib(): string | null {
  for (const python of ['/usr/bin/python3', 'python3']) {
    const probe = spawnSync(python, ['-c', 'from oauthlib.oauth2 import DeviceClient; import requests'], {
      stdio: 'ignore',
    });
    if (probe.status === 0) return python;
  }
  return null;
}

/**
 * oauthlib's DeviceClient (RFC 8628) as its docs show it: the device authorization request by
 * prepare_request_uri, the token request body by prepare_request_body, the answer parsed by
 * parse_request_body_response. It prints the codes, waits for a line on stdin (the person has
 * answered), polls once and prints the tokens.
 */
const OAUTHLIB_SCRIPT = `
import json, os, sys, requests
from urllib.parse import parse_qsl, urlsplit
from oauthlib.oauth2 import DeviceClient
os.environ['OAUTHLIB_INSECURE_TRANSPORT'] = '1'
client_id, device_url, token_url = sys.argv[1:4]
client = DeviceClient(client_id)
form = {'content-type': 'application/x-www-form-urlencoded'}
# prepare_request_uri puts the parameters in the query; RFC 8628 §3.1 sends them as the form.
prepared = parse_qsl(urlsplit(client.prepare_request_uri(device_url, scope=['openid', 'profile'])).query)
started = requests.post(device_url, data=[(k, v) for k, v in prepared if k != 'host'], headers=form).json()
print(json.dumps(started), flush=True)
sys.stdin.readline()
body = client.prepare_request_body(started['device_code'], include_client_id=True)
answer = requests.post(token_url, data=body, headers=form)
token = client.parse_request_body_response(answer.text, scope=['openid', 'profile'])
print(json.dumps(dict(token)), flush=True)
`;

const STORAGE_TESTS = [
  'attacks: another client, another org, a racing double answer, deny after allow, forged forms',
];

for (const database of storageSuite(
  'an answer and a redemption are each one conditional UPDATE: of two at once, exactly one counts',
))
  describe(`Device authorization grant (RFC 8628) on ${database}`, async () => {
    const skip = await databaseSkip(database);
    if (skip) {
      nodeTest('PostgreSQL', { skip }, () => undefined);
      return;
    }
    const test = storageTestsOn(database, STORAGE_TESTS);
    let server: TestServer;
    let issuer: string;
    let acme: Org;
    let cliId: string;
    let otherCliId: string;
    let webOnlyId: string;
    let adaId: string;
    let polled: Promise<oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers>;
    let openIdConfig: oidc.Configuration | undefined;

    before(async () => {
      // The test's OpenID provider listens on 127.0.0.1: the outbound policy lets it be reached.
      server = await startServer({
        database,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      });
      issuer = server.issuer('acme');
      acme = await makeOrg(server, 'acme');
      adaId = (await makeUser(server.deps, acme, 'ada@acme.test')).user.id;
      await makeUser(server.deps, acme, 'bob@acme.test');
      // A CLI as owners register one: public, the device grant and refresh tokens, no redirect URI.
      ({ clientId: cliId } = await makeClient(server.deps, acme, {
        name: 'Acme CLI',
        redirectUris: [],
        grantTypes: [DEVICE_GRANT, 'refresh_token'],
        firstParty: true,
      }));
      ({ clientId: otherCliId } = await makeClient(server.deps, acme, {
        name: 'Other CLI',
        redirectUris: [],
        grantTypes: [DEVICE_GRANT],
      }));
      ({ clientId: webOnlyId } = await makeClient(server.deps, acme, { name: 'Web only' }));
    });
    after(async () => {
      clock.now = () => Date.now();
      await server.close();
    });

    test('discovery names the endpoint and the grant', async () => {
      const doc = (await (await fetch(new URL('.well-known/openid-configuration', issuer))).json()) as Record<
        string,
        unknown
      >;
      assert.equal(doc.device_authorization_endpoint, `${new URL(issuer).origin}/oauth/device_authorization`);
      assert.ok((doc.grant_types_supported as string[]).includes(DEVICE_GRANT));
      // The device page is a hosted page like the others: no script, no frames, no caching.
      const page = await fetch(new URL('device?user_code=%3Cb%3E', issuer));
      assert.equal(page.status, 200);
      assert.match(
        page.headers.get('content-security-policy') ?? '',
        /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
      );
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.match(await page.text(), /value="&lt;b&gt;"/);
    });

    test('openid-client 6 with its defaults: the device authorization, and the person allows it over HTTP', async () => {
      const config = await oidc.discovery(new URL(issuer), cliId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile' });
      assert.match(started.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      assert.equal(started.verification_uri, `${issuer}device`);
      assert.equal(started.verification_uri_complete, `${issuer}device?user_code=${started.user_code}`);
      assert.equal(started.expires_in, 600);
      assert.equal(started.interval, 5);
      // openid-client waits the interval (5 s) before its first poll: the person answers meanwhile.
      polled = oidc.pollDeviceAuthorizationGrant(config, started);
      // A failure is seen by the test that awaits it.
      polled.catch(() => undefined);
      openIdConfig = config;
      const browser = new FormBrowser();
      // The person types the code in lower case, without the dash.
      const typed = started.user_code.replace('-', '').toLowerCase();
      const { confirmation, answered, answeredText } = await answerThroughPages(
        browser,
        issuer,
        typed,
        { email: 'ada@acme.test' },
        'allow',
      );
      // RFC 8628 §5.4: always a confirmation naming the client and the code, even for a first-party client.
      assert.match(
        confirmation.text,
        /A device is asking to use <strong class="client-name">Acme CLI<\/strong>/,
      );
      assert.match(confirmation.text, new RegExp(`<strong class="user-code">${started.user_code}</strong>`));
      assert.match(confirmation.text, /If someone sent you this code or a link to this page, deny\./);
      assert.equal(answered.status, 200);
      assert.match(answeredText, /<h1>Device connected<\/h1>/);
    });

    test("Python oauthlib's DeviceClient completes the flow", async (t) => {
      const python = pythonWithOauthlib();
      if (!python) {
        const reason =
          'SKIPPED: python3 with oauthlib and requests not found (apt-get install python3-oauthlib python3-requests)';
        const required = (process.env.TESSERA_TEST_REQUIRE ?? '').split(',').map((s) => s.trim());
        if (required.includes('python')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
        console.log(reason);
        t.skip(reason);
        return;
      }
      // Python resolves no *.localhost names: loopback, with the org named by the ?host= override.
      const host = `?host=acme.localhost:${server.port}`;
      const base = `http://127.0.0.1:${server.port}`;
      const child = spawnGroup(
        python,
        [
          '-c',
          OAUTHLIB_SCRIPT,
          cliId,
          `${base}/oauth/device_authorization${host}`,
          `${base}/oauth/token${host}`,
        ],
        { env: process.env, openStdin: true },
      );
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 20_000);
      let stderr = '';
      child.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      const lines: string[] = [];
      let waiting: (() => void) | null = null;
      let buffered = '';
      child.stdout?.on('data', (chunk) => {
        buffered += chunk;
        const parts = buffered.split('\n');
        buffered = parts.pop() ?? '';
        lines.push(...parts.filter((l) => l !== ''));
        waiting?.();
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      const line = async (n: number) => {
        while (lines.length < n) {
          await Promise.race([new Promise<void>((r) => (waiting = r)), closed]);
          if (lines.length < n && child.exitCode !== null) throw new Error(`python exited: ${stderr}`);
        }
        return JSON.parse(lines[n - 1] as string) as Record<string, string>;
      };
      try {
        const started = await line(1);
        const { answeredText } = await answerThroughPages(
          new FormBrowser(),
          issuer,
          started.user_code as string,
          { email: 'bob@acme.test' },
          'allow',
        );
        assert.match(answeredText, /Device connected/);
        child.stdin?.write('go\n');
        const token = await line(2);
        assert.equal(await closed, 0, stderr);
        assert.equal(token.token_type, 'Bearer');
        assert.ok(token.id_token, 'openid was asked for');
        const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
        const { payload } = await jwtVerify(token.access_token as string, jwks, { issuer, audience: cliId });
        assert.equal(typeof payload.sub, 'string');
      } finally {
        clearTimeout(timer);
        killGroup(child, 'SIGKILL');
      }
    });

    test('Chromium at phone width: the code form and the confirmation fit; the confirmation passes axe', async (t) => {
      const skip = chromiumSkip();
      if (skip) {
        t.skip(skip);
        return;
      }
      const started = (await startDevice(issuer, cliId)).body;
      const browser = await launchChromium();
      try {
        // bypassCSP lets axe's script in; the pages themselves run none.
        const context = await browser.newContext({ viewport: { width: 375, height: 740 }, bypassCSP: true });
        const page = await context.newPage();
        await page.goto(started.verification_uri_complete as string);
        assert.equal(await page.inputValue('#user_code'), started.user_code);
        const codeFormWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(codeFormWidth <= 375, `no sideways scrolling on a phone (${codeFormWidth}px)`);
        await page.click('button[type=submit]');
        await page.waitForURL((u) => u.pathname === '/login');
        await page.fill('#email', 'bob@acme.test');
        await page.fill('#password', PASSWORD);
        await page.click('button[type=submit]');
        await page.waitForURL((u) => u.pathname === '/device');
        assert.match((await page.textContent('.card')) ?? '', /A device is asking to use Acme CLI/);
        await assertReadable(page, 'device-confirm');
        await page.click('button[value=allow]');
        await page.waitForSelector('text=Device connected');
        assert.equal((await poll(issuer, cliId, started.device_code as string)).status, 200);
      } finally {
        await browser.close();
      }
    });

    test('openid-client 6 then gets the tokens with its default polling', async () => {
      // Its first poll comes 5 s after the answer above; the tests between ran meanwhile.
      const config = openIdConfig as oidc.Configuration;
      const tokens = await polled;
      assert.equal(tokens.token_type, 'bearer');
      assert.ok(tokens.refresh_token, 'the client has the refresh_token grant');
      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
      const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer, audience: cliId });
      assert.equal(payload.sub, adaId);
      assert.equal(payload.typ, 'user');
      assert.deepEqual(payload.amr, ['pwd']);
      const claims = tokens.claims();
      assert.equal(claims?.sub, adaId);
      assert.equal(claims?.aud, cliId);
      // The refresh token works as the code flow's does.
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      assert.ok(refreshed.access_token);
      // The session is written to the audit log as the code flow's is: created, by the person, for this client.
      const entries = await server.db
        .selectFrom('audit_events')
        .select(['actor_kind', 'actor_id', 'data'])
        .where('org_id', '=', acme.id)
        .where('key', '=', 'session.created')
        .execute();
      const entry = entries.find((e) => JSON.parse(e.data).id === payload.sid);
      assert.ok(entry, 'a session.created entry for the device session');
      assert.deepEqual([entry.actor_kind, entry.actor_id], ['user', adaId]);
      assert.equal(JSON.parse(entry.data).clientId, cliId);
    });

    test('each answer of a poll, with its exact body: pending, slow_down, denied, reuse, expired', async () => {
      // Pending, then polled again at once: slow_down, and the interval grows by 5 s each time.
      const denied = (await startDevice(issuer, cliId)).body;
      assert.deepEqual((await poll(issuer, cliId, denied.device_code as string)).body, {
        error: 'authorization_pending',
        error_description: 'the user has not answered the request yet',
      });
      const slow = await poll(issuer, cliId, denied.device_code as string);
      assert.equal(slow.status, 400);
      assert.equal(slow.headers.get('tessera-error-code'), 'token.device_code.slow_down');
      assert.equal(slow.headers.get('cache-control'), 'no-store');
      assert.deepEqual(slow.body, { error: 'slow_down', error_description: 'poll at most every 10 seconds' });
      assert.deepEqual((await poll(issuer, cliId, denied.device_code as string)).body, {
        error: 'slow_down',
        error_description: 'poll at most every 15 seconds',
      });

      // Denied on the confirmation page: access_denied, and so it stays.
      const browser = new FormBrowser();
      const { answeredText } = await answerThroughPages(
        browser,
        issuer,
        denied.user_code as string,
        { email: 'ada@acme.test' },
        'deny',
      );
      assert.match(answeredText, /<h1>Request denied<\/h1>/);
      for (let i = 0; i < 2; i++) {
        const refused = await poll(issuer, cliId, denied.device_code as string);
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.body, {
          error: 'access_denied',
          error_description: 'the user denied the request',
        });
      }

      // Allowed, redeemed once; presented again it is invalid_grant, and the session it opened ends.
      const allowed = (await startDevice(issuer, cliId)).body;
      await answerThroughPages(
        browser,
        issuer,
        allowed.user_code as string,
        { email: 'ada@acme.test' },
        'allow',
      );
      const tokens = await poll(issuer, cliId, allowed.device_code as string);
      assert.equal(tokens.status, 200);
      assert.deepEqual(Object.keys(tokens.body).sort(), [
        'access_token',
        'expires_in',
        'id_token',
        'refresh_token',
        'token_type',
      ]);
      const reused = await poll(issuer, cliId, allowed.device_code as string);
      assert.equal(reused.status, 400);
      assert.deepEqual(reused.body, {
        error: 'invalid_grant',
        error_description: 'the device code was already used; its session is revoked',
      });
      const refresh = await postForm(issuer, 'oauth/token', {
        grant_type: 'refresh_token',
        client_id: cliId,
        refresh_token: tokens.body.refresh_token as string,
      });
      assert.equal(refresh.body.error, 'invalid_grant', 'the session of a reused device code is revoked');

      // Past its 10 minutes: expired_token, and the page no longer takes its code.
      const late = (await startDevice(issuer, cliId)).body;
      const frozen = freezeClock();
      try {
        frozen.moveTo(600_000);
        const expired = await poll(issuer, cliId, late.device_code as string);
        assert.equal(expired.status, 400);
        assert.deepEqual(expired.body, {
          error: 'expired_token',
          error_description: 'the device code has expired',
        });
        const entered = await enterCode(new FormBrowser(), issuer, late.user_code as string);
        assert.equal(entered.response.status, 400);
        assert.equal(entered.response.headers.get('tessera-error-code'), 'device.user_code.invalid');
      } finally {
        clock.now = () => Date.now();
      }

      // Unknown, missing.
      assert.deepEqual((await poll(issuer, cliId, 'tdc_nothing')).body, {
        error: 'invalid_grant',
        error_description: 'the device code is invalid',
      });
      assert.deepEqual(
        (await postForm(issuer, 'oauth/token', { grant_type: DEVICE_GRANT, client_id: cliId })).body,
        { error: 'invalid_request', error_description: 'device_code is required' },
      );
    });

    test('which clients may: the device grant listed, else unauthorized_client at both endpoints', async () => {
      const refused = await startDevice(issuer, webOnlyId);
      assert.equal(refused.status, 400);
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      assert.deepEqual(refused.body, {
        error: 'unauthorized_client',
        error_description: 'this client may not use the device authorization grant',
      });
      const polled = await poll(issuer, webOnlyId, 'tdc_x');
      assert.equal(polled.body.error, 'unauthorized_client');
      const unknown = await startDevice(issuer, 'cli_unknown');
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, 'invalid_client');
      const badScope = await startDevice(issuer, cliId, 'openid nonsense');
      assert.equal(badScope.body.error, 'invalid_scope');
      const badResource = await postForm(issuer, 'oauth/device_authorization', {
        client_id: cliId,
        resource: 'https://api.nowhere.test/',
      });
      assert.equal(badResource.body.error, 'invalid_target');
      // Garbage in: a JSON body, a parameter given twice, a wrong secret of a confidential client.
      const json = await fetch(new URL('oauth/device_authorization', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: cliId }),
      });
      assert.equal(json.status, 400);
      assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
      const twice = await fetch(new URL('oauth/device_authorization', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `client_id=${cliId}&client_id=${otherCliId}`,
      });
      assert.equal(twice.status, 400);
      const { clientId: confidentialId } = await makeClient(server.deps, acme, {
        name: 'Kiosk',
        kind: 'confidential',
        redirectUris: [],
        grantTypes: [DEVICE_GRANT],
      });
      const wrongSecret = await postForm(
        issuer,
        'oauth/device_authorization',
        { scope: 'openid' },
        `Basic ${Buffer.from(`${confidentialId}:wrong`).toString('base64')}`,
      );
      assert.equal(wrongSecret.status, 401);
      assert.equal(wrongSecret.body.error, 'invalid_client');
      // RFC 6749 §5.2: credentials sent in Authorization get the matching challenge; never cached.
      assert.equal(wrongSecret.headers.get('www-authenticate'), `Basic realm="${issuer}"`);
      assert.equal(wrongSecret.headers.get('cache-control'), 'no-store');
      // A device code far too long is just unknown.
      assert.equal((await poll(issuer, cliId, 'x'.repeat(5000))).body.error, 'invalid_grant');
      // A client ID metadata document may list the device grant beside the code flow's.
      const url = 'https://cli.example.com/client.json';
      const doc = (grant_types: string[]) =>
        JSON.stringify({
          client_id: url,
          redirect_uris: ['http://127.0.0.1/callback'],
          token_endpoint_auth_method: 'none',
          grant_types,
        });
      const described = clientFromDocument(acme, url, doc(['authorization_code', DEVICE_GRANT]));
      assert.deepEqual(typeof described === 'string' ? described : described.grantTypes, [
        'authorization_code',
        DEVICE_GRANT,
      ]);
      assert.equal(
        clientFromDocument(acme, url, doc(['authorization_code', 'client_credentials'])),
        'grant type "client_credentials" is not available to it',
      );
      // Dynamic registration keeps exactly the spec's grant_types.
      const registered = await fetch(new URL('oauth/register', server.base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'DCR app', redirect_uris: ['http://127.0.0.1:9000/cb'] }),
      });
      assert.deepEqual(((await registered.json()) as { grant_types: string[] }).grant_types, [
        'authorization_code',
        'refresh_token',
      ]);
    });

    test('attacks: another client, another org, a racing double answer, deny after allow, forged forms', async () => {
      const globex = await makeOrg(server, 'globex');
      const globexIssuer = server.issuer('globex');
      await makeUser(server.deps, globex, 'eve@globex.test');
      const { clientId: globexCli } = await makeClient(server.deps, globex, {
        name: 'Globex CLI',
        redirectUris: [],
        grantTypes: [DEVICE_GRANT],
      });
      const adaSessions = () =>
        server.db
          .selectFrom('oauth_sessions')
          .select('id')
          .where('client_id', '=', cliId)
          .where('user_id', '=', adaId)
          .execute();
      const sessionsBefore = (await adaSessions()).length;
      const started = (await startDevice(issuer, cliId)).body;
      const deviceCode = started.device_code as string;

      // A device code of another client, and polled at another org's issuer by its own client.
      const invalid = { error: 'invalid_grant', error_description: 'the device code is invalid' };
      assert.deepEqual((await poll(issuer, otherCliId, deviceCode)).body, invalid);
      assert.deepEqual((await poll(globexIssuer, globexCli, deviceCode)).body, invalid);

      // The user code entered on another org's page by its user: no such code there.
      const eve = new FormBrowser();
      const atGlobex = await enterCode(eve, globexIssuer, started.user_code as string);
      assert.equal(atGlobex.response.status, 400);
      assert.match(await atGlobex.response.text(), /That code is not valid, or has expired/);
      // Nor does another org's page open the device authorization by its id.
      const entered = await enterCode(new FormBrowser(), issuer, started.user_code as string);
      const confirmPath = locationOf(entered.response, entered.pageUrl);
      const foreign = await eve.get(confirmPath.replace(new URL(issuer).host, new URL(globexIssuer).host));
      assert.equal(foreign.status, 400);
      assert.equal(foreign.headers.get('tessera-error-code'), 'sign_in.request.expired');

      // Sign Ada in and open the confirmation.
      const ada = new FormBrowser();
      const codeEntered = await enterCode(ada, issuer, started.user_code as string);
      let page = await follow(ada, codeEntered.response, codeEntered.pageUrl);
      const signedIn = await ada.submit(page.url, page.text, { email: 'ada@acme.test', password: PASSWORD });
      page = await follow(ada, signedIn, page.url);
      assert.equal(page.status, 200);
      const form = readForm(page.text);
      const confirmUrl = new URL(form.action, page.url).href;

      // CSRF: no token, or a token of another browser's form, is refused and decides nothing.
      const noToken = await ada.post(confirmUrl, { decision: 'allow' });
      assert.equal(noToken.status, 403);
      const bob = new FormBrowser();
      const bobCode = await enterCode(bob, issuer, started.user_code as string);
      let bobPage = await follow(bob, bobCode.response, bobCode.pageUrl);
      const bobIn = await bob.submit(bobPage.url, bobPage.text, {
        email: 'bob@acme.test',
        password: PASSWORD,
      });
      bobPage = await follow(bob, bobIn, bobPage.url);
      const forged = await ada.post(confirmUrl, {
        csrf: readForm(bobPage.text).hidden.csrf as string,
        decision: 'allow',
      });
      assert.equal(forged.status, 403);
      assert.deepEqual((await poll(issuer, cliId, deviceCode)).body.error, 'authorization_pending');

      // Two Allows at once: one session is opened, the other answer is refused.
      const both = await Promise.all([
        ada.post(confirmUrl, { ...form.hidden, decision: 'allow' }),
        ada.post(confirmUrl, { ...form.hidden, decision: 'allow' }),
      ]);
      assert.deepEqual(both.map((r) => r.status).sort(), [200, 400]);
      // Bob's Deny after Ada's Allow changes nothing.
      const lateDeny = await bob.submit(bobPage.url, bobPage.text, { decision: 'deny' });
      assert.equal(lateDeny.status, 400);
      assert.equal((await adaSessions()).length, sessionsBefore + 1, 'one session opened');
      const polled = await poll(issuer, cliId, deviceCode);
      assert.equal(polled.status, 200, JSON.stringify(polled.body));
      const payload = JSON.parse(
        Buffer.from((polled.body.access_token as string).split('.')[1] as string, 'base64url').toString(),
      );
      assert.equal(payload.sub, adaId, 'the first Allow decided, for its own person');
      // Nothing secret reached the pages' URLs: the device code appears nowhere but in the token request.
      assert.ok(!confirmUrl.includes(deviceCode));
    });

    test('resource and roles as in the code flow: the granted scopes only, shown on the confirmation', async () => {
      const FILES = 'https://files.acme.test/';
      const scopes = [
        { name: 'files:read', description: 'Read your files' },
        { name: 'files:write', description: 'Change your files' },
      ];
      await createApiResource(server.deps, acme, { identifier: FILES, name: 'Files', scopes }, SYSTEM);
      const viewer = await createRole(
        server.deps,
        acme,
        { name: 'viewer', permissions: [{ resource: FILES, scope: 'files:read' }] },
        SYSTEM,
      );
      await setRolesOfUser(server.deps, acme, adaId, [viewer.id], SYSTEM);
      const started = await postForm(issuer, 'oauth/device_authorization', {
        client_id: cliId,
        scope: 'openid files:read files:write',
        resource: FILES,
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const { confirmation } = await answerThroughPages(
        new FormBrowser(),
        issuer,
        started.body.user_code as string,
        { email: 'ada@acme.test' },
        'allow',
      );
      // The person's roles decide: files:write, which no role of Ada's holds, is neither shown nor granted.
      assert.match(confirmation.text, /Use <strong>Files<\/strong>[\s\S]*Read your files/);
      assert.doesNotMatch(confirmation.text, /Change your files/);
      const tokens = await postForm(issuer, 'oauth/token', {
        grant_type: DEVICE_GRANT,
        client_id: cliId,
        device_code: started.body.device_code as string,
        resource: FILES,
      });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const claims = JSON.parse(
        Buffer.from((tokens.body.access_token as string).split('.')[1] as string, 'base64url').toString(),
      );
      assert.deepEqual(claims.aud, [cliId, FILES]);
      assert.equal(claims.scope, 'files:read');
      assert.equal(tokens.body.scope, 'files:read');
      await setRolesOfUser(server.deps, acme, adaId, [], SYSTEM);
    });

    test('an org that requires a second factor: the person enrols, then the confirmation comes', async () => {
      const org = await makeOrg(server, 'secure');
      const orgIssuer = server.issuer('secure');
      await makeUser(server.deps, org, 'sam@secure.test');
      await updateOrgSettings(server.deps, org, { requireMfa: true }, SYSTEM);
      const { clientId } = await makeClient(server.deps, org, {
        name: 'Secure CLI',
        redirectUris: [],
        grantTypes: [DEVICE_GRANT],
      });
      const started = (await startDevice(orgIssuer, clientId, 'openid')).body;
      const browser = new FormBrowser();
      const entered = await enterCode(browser, orgIssuer, started.user_code as string);
      const done = await walk(
        locationOf(entered.response, entered.pageUrl),
        'sam@secure.test',
        { enrol: (page) => totpCode(secretOnPage(page)) },
        browser,
      );
      // Password, enrolment, the recovery codes (whose Continue goes on with the device), the confirmation.
      assert.deepEqual(
        done.pages.map((p) => p.path),
        ['/login', '/login/enrol', '/login/enrol', '/device'],
      );
      assert.equal(recoveryCodesOnPage(done.pages[2]?.html ?? '').length, 10);
      assert.match(done.html, /A device is asking to use <strong class="client-name">Secure CLI<\/strong>/);
      const answered = await browser.submit(done.url, done.html, { decision: 'allow' });
      assert.equal(answered.status, 200);
      const tokens = await poll(orgIssuer, clientId, started.device_code as string);
      assert.equal(tokens.status, 200);
      const payload = JSON.parse(
        Buffer.from((tokens.body.access_token as string).split('.')[1] as string, 'base64url').toString(),
      );
      assert.deepEqual(payload.amr, ['pwd', 'otp']);
    });

    test("enterprise sign-in: a connection's OpenID provider signs the person in, then the confirmation comes", async () => {
      const upstream = await ClaimsUpstream.start();
      try {
        const con = await createConnection(
          server.deps,
          acme,
          {
            type: 'oidc',
            name: 'Claims IdP',
            domains: ['claims.test'],
            jit: true,
            issuer: upstream.issuer,
            clientId: 'tessera',
            clientSecret: 'upstream client secret 0123456789',
          },
          SYSTEM,
        );
        upstream.claims = { sub: 'kim', email: 'kim@claims.test', email_verified: true };
        const started = (await startDevice(issuer, cliId, 'openid')).body;
        const browser = new FormBrowser();
        const entered = await enterCode(browser, issuer, started.user_code as string);
        const deviceUrl = locationOf(entered.response, entered.pageUrl);
        const req = new URL(deviceUrl).searchParams.get('req') as string;
        // The login page's "Sign in with Claims IdP" carries the device authorization on.
        const login = await follow(browser, await browser.get(deviceUrl), deviceUrl);
        assert.match(login.text, new RegExp(`/sso/${con.id}/start\\?req=${req}`));
        const start = await browser.get(`${issuer}sso/${con.id}/start?req=${req}`);
        assert.equal(start.status, 303);
        const answered = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
        const callback = answered.headers.get('location') ?? '';
        const page = await follow(browser, await browser.get(callback), callback);
        assert.equal(page.status, 200, page.text);
        assert.equal(new URL(page.url).pathname, '/device');
        assert.match(
          page.text,
          /A device is asking to use <strong class="client-name">Acme CLI<\/strong> with your account <strong>kim@claims\.test<\/strong>/,
        );
        assert.equal((await browser.submit(page.url, page.text, { decision: 'allow' })).status, 200);
        const tokens = await poll(issuer, cliId, started.device_code as string);
        assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
        const claims = JSON.parse(
          Buffer.from((tokens.body.access_token as string).split('.')[1] as string, 'base64url').toString(),
        );
        assert.equal(claims.acr, 'urn:tessera:acr:fed');
      } finally {
        await upstream.close();
      }
    });

    test('entering codes is throttled per address and per code', async () => {
      const org = await makeOrg(server, 'throttled');
      const orgIssuer = server.issuer('throttled');
      await makeUser(server.deps, org, 'tim@throttled.test');
      const frozen = freezeClock();
      try {
        frozen.moveTo(0);
        const browser = new FormBrowser();
        const type = async (code: string) => (await enterCode(browser, orgIssuer, code)).response;
        // One code tried over and over: 5 answers, then 429.
        for (let i = 0; i < 5; i++) assert.equal((await type('BBBB-BBBB')).status, 400);
        const perCode = await type('bbbbbbbb');
        assert.equal(perCode.status, 429);
        assert.equal(perCode.headers.get('retry-after'), '900');
        assert.equal(perCode.headers.get('tessera-error-code'), 'device.user_code.throttled');
        assert.match(await perCode.text(), /Too many codes entered\. Try again in 15 minutes\./);
        // Other codes from the same address: 10 in all, then 429 whatever the code.
        for (let i = 0; i < 4; i++) assert.equal((await type(`CCCC-CCC${'DFGH'[i]}`)).status, 400);
        const perIp = await type('DDDD-DDDD');
        assert.equal(perIp.status, 429);
        // A malformed code counts as well: the address is still refused.
        assert.equal((await type('<script>')).status, 429);
      } finally {
        clock.now = () => Date.now();
      }
    });
  });

/** No sideways scrolling at phone width, a screenshot in test-results/, no serious axe violation. */
async function assertReadable(page: import('playwright-core').Page, name: string) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= 375, `no sideways scrolling on a phone (${scrollWidth}px)`);
  await screenshot(page, `${RESULTS}${name}-page.png`);
  const results = await axeAnalysis(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help}`),
    [],
    `accessibility of the ${name} page`,
  );
}
