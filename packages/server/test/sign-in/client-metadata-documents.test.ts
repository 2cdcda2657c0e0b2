import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { type Resolver, systemResolver } from '../../src/delivery/checked-lookup.js';
import { clock } from '../../src/domain/clock.js';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, readForm, signInThroughPages } from './support/browser.js';
import { DocumentHost } from './support/document-host.js';
import { authorizeUrl, CALLBACK, tokenRequest } from './support/fixtures.js';

const OWNER = { email: 'owner@acme.test', password: 'owner long password' };
/** The one sentence anyone is told about a document that cannot be used; the reason is logged. */
const UNUSABLE = /its metadata document could not be fetched or is not valid/;
/** What the answers must never tell: how the network looks from the server. */
const NETWORK_DETAIL = /refused to connect|loopback|DNS|ENOTFOUND|timed out|HTTP \d{3}|larger than/;

/** The log lines saying why `clientId`'s document was not used. */
const reasons = (logs: string[], clientId: string) =>
  logs
    .map((line) => JSON.parse(line) as { msg?: string; clientId?: string; problem?: string })
    .filter((l) => l.msg === 'client metadata document not used' && l.clientId === clientId)
    .map((l) => l.problem ?? '');

/** Waits (without a time limit of its own) until `done` holds. */
async function until(done: () => boolean) {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
}
const realNow = clock.now;

/** What GET /oauth/authorize answers for this client: the status, where it redirects, the page text. */
async function authorize(issuer: string, clientId: string, extra: Record<string, string | null> = {}) {
  const response = await fetch(authorizeUrl(issuer, clientId, extra).url, { redirect: 'manual' });
  return {
    status: response.status,
    location: response.headers.get('location'),
    type: response.headers.get('content-type') ?? '',
    page: await response.text(),
  };
}

/** Signs the owner in to `clientId` through the hosted pages and exchanges the code. */
async function signIn(issuer: string, clientId: string, scope = 'openid org:read') {
  const { url, verifier } = authorizeUrl(issuer, clientId, { scope });
  const callback = new URL(await signInThroughPages(new FormBrowser(), url, OWNER));
  const code = callback.searchParams.get('code') ?? assert.fail(`no code: ${callback.href}`);
  return tokenRequest(issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    client_id: clientId,
    code_verifier: verifier,
  });
}

for (const database of httpSuite()) {
  describe(`Client ID Metadata Documents on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let host: DocumentHost;
    let issuer: string;
    const logs: string[] = [];

    before(async () => {
      if (skip) return;
      host = await DocumentHost.start();
      server = await startServer({
        database,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
        logs,
        // The test's self-signed host, a short limit so "a host that never answers" ends soon, and
        // fewer fetches at once in all than the default 16, so two hosts reach it.
        clientMetadata: { ca: host.ca, timeoutMs: 1_000, maxFetches: 6 },
      });
      await createOrg(server.deps, { slug: 'acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
      issuer = `${server.base}/`;
    });
    after(async () => {
      clock.now = realNow;
      await server?.close();
      await host?.close();
    });
    beforeEach(() => {
      clock.now = realNow;
    });

    test('both discovery documents of the console issuer advertise it; an org issuer does not', {
      skip,
    }, async () => {
      for (const path of ['.well-known/openid-configuration', '.well-known/oauth-authorization-server']) {
        const doc = (await (await fetch(new URL(path, issuer))).json()) as Record<string, unknown>;
        assert.equal(doc.client_id_metadata_document_supported, true, path);
        const org = (await (await fetch(new URL(path, server.issuer('acme')))).json()) as Record<
          string,
          unknown
        >;
        assert.equal(org.client_id_metadata_document_supported, undefined, path);
      }
    });

    test('sign-in with a document URL as client_id: consent names the client and its host, aud is the URL, audited', {
      skip,
    }, async () => {
      const clientId = host.document('/clients/desktop.json', [CALLBACK]);
      const clientsBefore = await server.db.selectFrom('clients').select('id').execute();

      // The consent page: the document's client_name, the host publishing it, the third-party note.
      const { url, verifier } = authorizeUrl(issuer, clientId, {
        scope: 'openid offline_access org:read users:impersonate',
      });
      const browser = new FormBrowser();
      let response = await browser.get(url);
      let at = locationOf(response, url);
      assert.equal(new URL(at).pathname, '/login');
      response = await browser.submit(at, await (await browser.get(at)).text(), OWNER);
      at = locationOf(response, at);
      assert.equal(new URL(at).pathname, '/consent');
      const consent = await (await browser.get(at)).text();
      assert.match(consent, /Acme MCP desktop/);
      assert.match(
        consent,
        new RegExp(`describes itself at <strong>127\\.0\\.0\\.1:${new URL(clientId).port}</strong>`),
      );
      assert.match(consent, /registered by a third party/);
      assert.ok(readForm(consent).action);
      response = await browser.submit(at, consent, { decision: 'allow' });
      const callback = new URL(locationOf(response, at));
      const code = callback.searchParams.get('code') ?? assert.fail('no code');

      const exchanged = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        client_id: clientId,
        code_verifier: verifier,
      });
      assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
      const claims = decodeJwt(exchanged.body.access_token as string);
      assert.equal(claims.aud, clientId);
      // Registered-client scopes: never users:impersonate (DESIGN §10).
      assert.equal(exchanged.body.scope, 'openid offline_access org:read');
      assert.equal(decodeJwt(exchanged.body.id_token as string).aud, clientId);

      // Refresh, as a public client, and revocation.
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: exchanged.body.refresh_token as string,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.equal(decodeJwt(refreshed.body.access_token as string).aud, clientId);
      const withSecret = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token as string,
        client_id: clientId,
        client_secret: 'anything',
      });
      assert.equal(withSecret.status, 401);
      assert.equal(withSecret.body.error, 'invalid_client');

      // No row in clients; the audit names the URL.
      assert.deepEqual(await server.db.selectFrom('clients').select('id').execute(), clientsBefore);
      const audit = await server.db
        .selectFrom('audit_events')
        .select(['entity', 'verb', 'data'])
        .where('entity', 'in', ['consent', 'session'])
        .execute();
      const named = audit.filter((a) => String(a.data).includes(JSON.stringify(clientId)));
      assert.ok(
        named.some((a) => a.entity === 'consent' && a.verb === 'created'),
        JSON.stringify(audit),
      );
      assert.ok(
        named.some((a) => a.entity === 'session' && a.verb === 'created'),
        JSON.stringify(audit),
      );

      // Consent every time, as for any registered client.
      const again = await browser.get(authorizeUrl(issuer, clientId, { scope: 'openid' }).url);
      assert.equal(new URL(locationOf(again, issuer)).pathname, '/consent');
    });

    test('refused at /oauth/authorize with a page (never a redirect), and invalid_client at the token endpoint', {
      skip,
    }, async () => {
      // Why a document cannot be used is in the log only; the answer says one generic sentence.
      const cases: [string, string, RegExp][] = [
        [
          'a document whose client_id differs',
          host.serve('/clients/other.json', {
            body: {
              client_id: host.url('/clients/someone-else.json'),
              redirect_uris: [CALLBACK],
              token_endpoint_auth_method: 'none',
            },
          }),
          /^is not valid: its client_id is not the URL it was fetched from$/,
        ],
        [
          'a document over 5 KB',
          host.document('/clients/big.json', [CALLBACK], { padding: 'x'.repeat(6 * 1024) }),
          /^could not be fetched: larger than 5120 bytes$/,
        ],
        [
          'a host that never answers',
          host.serve('/clients/slow.json', { hang: true }),
          /^could not be fetched: timed out after 1 s$/,
        ],
        [
          'a secret-holding client',
          host.document('/clients/confidential.json', [CALLBACK], {
            token_endpoint_auth_method: 'client_secret_basic',
          }),
          /^is not valid: its token_endpoint_auth_method must be "none"$/,
        ],
        [
          'a redirect URI breaking the registration rule',
          host.document('/clients/custom-scheme.json', [CALLBACK, 'myapp://callback']),
          /^is not valid: redirect_uris\[1\] must be https/,
        ],
        [
          'a userinfo signing algorithm other than RS256',
          host.document('/clients/hs256.json', [CALLBACK], { userinfo_signed_response_alg: 'HS256' }),
          /^is not valid: its userinfo_signed_response_alg must be RS256 when given$/,
        ],
        ['a missing document', host.url('/clients/missing.json'), /^could not be fetched: HTTP 404$/],
      ];
      for (const [what, clientId, reason] of cases) {
        const answer = await authorize(issuer, clientId);
        assert.equal(answer.status, 400, what);
        assert.equal(answer.location, null, what);
        assert.match(answer.type, /text\/html/, what);
        assert.match(answer.page, UNUSABLE, what);
        assert.doesNotMatch(answer.page, NETWORK_DETAIL, what);
        assert.doesNotMatch(answer.page, /client_id is not|must be|auth_method/, what);
        const token = await tokenRequest(issuer, {
          grant_type: 'authorization_code',
          code: 'tac_nothing',
          redirect_uri: CALLBACK,
          client_id: clientId,
          code_verifier: 'x'.repeat(43),
        });
        assert.equal(token.status, 401, what);
        assert.equal(token.body.error, 'invalid_client', what);
        assert.match(String(token.body.error_description), UNUSABLE, what);
        assert.doesNotMatch(String(token.body.error_description), NETWORK_DETAIL, what);
        // Fetched once (the failure is kept briefly), logged once with the reason.
        const logged = reasons(logs, clientId);
        assert.equal(logged.length, 1, `${what}: ${logged.join(' | ')}`);
        assert.match(logged[0] ?? '', reason, what);
      }

      // A client_id that is no document URL at all is said so: nothing was fetched.
      const shapes: [string, RegExp][] = [
        ['http://127.0.0.1:9/clients/plain.json', /must be an https URL/],
        [`https://127.0.0.1:${new URL(host.url('/')).port}/`, /must have a path/],
      ];
      for (const [clientId, why] of shapes) {
        const answer = await authorize(issuer, clientId);
        assert.equal(answer.status, 400, clientId);
        assert.match(answer.page, why, clientId);
      }

      // A redirect URI the document does not list: a page, not a redirect to it.
      const listed = host.document('/clients/listed.json', [CALLBACK]);
      const elsewhere = await authorize(issuer, listed, { redirect_uri: 'http://127.0.0.1:8765/elsewhere' });
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.location, null);
      assert.match(elsewhere.page, /redirect_uri is not registered/);

      // An org issuer never fetches: a URL is an unknown client there.
      const hits = host.hits.get('/clients/listed.json');
      const onOrg = await authorize(server.issuer('acme'), listed);
      assert.equal(onOrg.status, 400);
      assert.match(onOrg.page, /not known here/);
      assert.equal(host.hits.get('/clients/listed.json'), hits);
    });

    test('fetches at once are limited in all and per host: one more is refused at once, generically, and not kept', {
      skip,
    }, async () => {
      const port = new URL(host.url('/')).port;
      const slow = (name: string, at = '127.0.0.1') => {
        host.serve(`/busy/${name}.json`, { hang: true });
        return `https://${at}:${port}/busy/${name}.json`;
      };
      const hits = (names: string[]) =>
        names.reduce((n, name) => n + (host.hits.get(`/busy/${name}.json`) ?? 0), 0);
      // Four hanging documents on 127.0.0.1: the per-host default (4) is reached.
      const onLoopback = ['a1', 'a2', 'a3', 'a4'];
      const hanging = onLoopback.map((name) => authorize(issuer, slow(name)));
      await until(() => hits(onLoopback) === 4);
      const fifth = slow('a5');
      const refused = await authorize(issuer, fifth);
      assert.equal(refused.status, 400);
      assert.match(refused.page, UNUSABLE);
      assert.doesNotMatch(refused.page, NETWORK_DETAIL);
      assert.equal(host.hits.get('/busy/a5.json'), undefined, 'never requested');
      assert.deepEqual(reasons(logs, fifth), [
        `could not be fetched: 4 document fetches to 127.0.0.1 already running`,
      ]);
      // Another host still has room, until the fetches in all (6 here) are running.
      const onOther = ['b1', 'b2'];
      hanging.push(...onOther.map((name) => authorize(issuer, slow(name, 'hooks.localhost'))));
      await until(() => hits(onOther) === 2);
      const seventh = slow('b3', 'hooks.localhost');
      assert.equal((await authorize(issuer, seventh)).status, 400);
      assert.equal(host.hits.get('/busy/b3.json'), undefined, 'never requested');
      assert.deepEqual(reasons(logs, seventh), ['could not be fetched: 6 document fetches already running']);
      for (const answer of await Promise.all(hanging)) assert.equal(answer.status, 400);
      // A refusal for being busy is not remembered: once the others end, the document is used.
      const ready = host.document('/busy/a5.json', [CALLBACK]);
      assert.equal(ready, fifth);
      const answer = await authorize(issuer, fifth);
      assert.equal(answer.status, 302, answer.page);
    });

    test('HTTP caching: max-age kept (capped at 24 h), no-store fetched each time, failures kept briefly', {
      skip,
    }, async () => {
      const start = Date.now();
      clock.now = () => start;
      const kept = host.document(
        '/cache/kept.json',
        [CALLBACK],
        {},
        { 'cache-control': 'public, max-age=600' },
      );
      await authorize(issuer, kept);
      await authorize(issuer, kept);
      assert.equal(host.hits.get('/cache/kept.json'), 1);
      clock.now = () => start + 601_000;
      await authorize(issuer, kept);
      assert.equal(host.hits.get('/cache/kept.json'), 2);

      const capped = host.document(
        '/cache/year.json',
        [CALLBACK],
        {},
        { 'cache-control': 'max-age=31536000' },
      );
      clock.now = () => start;
      await authorize(issuer, capped);
      clock.now = () => start + 24 * 3600_000 - 1;
      await authorize(issuer, capped);
      assert.equal(host.hits.get('/cache/year.json'), 1);
      clock.now = () => start + 24 * 3600_000 + 1;
      await authorize(issuer, capped);
      assert.equal(host.hits.get('/cache/year.json'), 2);

      clock.now = () => start;
      const fresh = host.document('/cache/no-store.json', [CALLBACK], {}, { 'cache-control': 'no-store' });
      await authorize(issuer, fresh);
      await authorize(issuer, fresh);
      assert.equal(host.hits.get('/cache/no-store.json'), 2);

      // A document that is fixed is used once the failure's short memory has passed.
      const fixed = host.serve('/cache/fixed.json', { status: 500 });
      assert.equal((await authorize(issuer, fixed)).status, 400);
      host.document('/cache/fixed.json', [CALLBACK]);
      assert.equal((await authorize(issuer, fixed)).status, 400);
      clock.now = () => start + 11_000;
      const answer = await authorize(issuer, fixed);
      assert.equal(answer.status, 302, answer.page);
    });

    test('a deleted registered client still takes its sessions and consents with it', { skip }, async () => {
      // Migration 017 dropped the client_id references; deleting a client deletes those rows itself.
      const { createClient, deleteClient } = await import('../../src/domain/directory/clients.js');
      const { findConsoleOrg } = await import('../../src/storage/repos/orgs.js');
      const { SYSTEM } = await import('../../src/domain/types.js');
      const consoleOrg = (await findConsoleOrg(server.db)) ?? assert.fail('no console org');
      const { client } = await createClient(
        server.deps,
        consoleOrg,
        { name: 'Short-lived', kind: 'public', redirectUris: [CALLBACK], firstParty: false },
        SYSTEM,
      );
      const signed = await signIn(issuer, client.id);
      assert.equal(signed.status, 200);
      const count = async (table: 'oauth_sessions' | 'consents') =>
        (await server.db.selectFrom(table).select('client_id').where('client_id', '=', client.id).execute())
          .length;
      assert.equal(await count('oauth_sessions'), 1);
      assert.equal(await count('consents'), 1);
      await deleteClient(server.deps, consoleOrg, client.id, SYSTEM);
      assert.equal(await count('oauth_sessions'), 0);
      assert.equal(await count('consents'), 0);
      const refresh = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: signed.body.refresh_token as string,
        client_id: client.id,
      });
      assert.equal(refresh.body.error, 'invalid_client');
    });
  });
}

describe('Client ID Metadata Documents without TESSERA_OUTBOUND_ALLOW_PRIVATE', () => {
  let server: TestServer;
  let host: DocumentHost;
  const logs: string[] = [];
  // A name no resolver knows, answered here (no DNS query leaves the machine).
  const UNKNOWN_NAME = 'nowhere.localhost';

  before(async () => {
    host = await DocumentHost.start();
    const resolver: Resolver = (hostname, family) => {
      if (hostname !== UNKNOWN_NAME) return systemResolver(hostname, family);
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      return Promise.reject(error);
    };
    server = await startServer({ logs, clientMetadata: { ca: host.ca, timeoutMs: 1_000, resolver } });
  });
  after(async () => {
    await server?.close();
    await host?.close();
  });

  test('a document on a private (here loopback) address is refused before any connection', async () => {
    const clientId = host.document('/clients/desktop.json', [CALLBACK]);
    const answer = await authorize(`${server.base}/`, clientId);
    assert.equal(answer.status, 400);
    assert.equal(answer.location, null);
    assert.match(answer.page, UNUSABLE);
    assert.doesNotMatch(answer.page, NETWORK_DETAIL);
    assert.equal(host.hits.get('/clients/desktop.json'), undefined);
    assert.deepEqual(reasons(logs, clientId), [
      'could not be fetched: refused to connect to 127.0.0.1: loopback',
    ]);
  });

  test('a document on a name that does not resolve: the same answer, the DNS error in the log only', async () => {
    const clientId = `https://${UNKNOWN_NAME}/clients/desktop.json`;
    const answer = await authorize(`${server.base}/`, clientId);
    assert.equal(answer.status, 400);
    assert.equal(answer.location, null);
    assert.match(answer.page, UNUSABLE);
    assert.doesNotMatch(answer.page, NETWORK_DETAIL);
    assert.deepEqual(reasons(logs, clientId), ['could not be fetched: DNS: ENOTFOUND']);
  });
});
