import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { updateOrgSettings } from '../../src/domain/directory/org-settings.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { FormBrowser, locationOf, signInThroughPages } from '../sign-in/support/browser.js';
import { DocumentHost } from '../sign-in/support/document-host.js';
import { authorizeUrl, CALLBACK, makeOrg, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';

// Registration on an org's issuer (DESIGN §15). SQLite only: the settings' storage is proven on both
// databases in organizations.test.ts; what is here is HTTP and sign-in, the same on either.

type Body = Record<string, unknown>;

async function register(origin: string, body: unknown, address: string) {
  const res = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body };
}

async function discovery(issuer: string): Promise<Body> {
  const res = await fetch(`${issuer}.well-known/openid-configuration`);
  assert.equal(res.status, 200);
  return (await res.json()) as Body;
}

describe('registration on an org issuer: dynamic_registration and metadata_documents', () => {
  let server: TestServer;
  let host: DocumentHost;
  let acme: Org;
  let issuer: string;
  let origin: string;
  let n = 0;
  const address = () => `203.0.113.${++n}`;

  before(async () => {
    host = await DocumentHost.start();
    server = await startServer({
      env: { TESSERA_TRUST_PROXY: '1', TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      clientMetadata: { ca: host.ca },
    });
    acme = await makeOrg(server, 'acme');
    await makeUser(server.deps, acme, 'ada@acme.test');
    issuer = server.issuer('acme');
    origin = issuer.slice(0, -1);
  });
  after(async () => {
    await server.close();
    await host.close();
  });

  const set = async (change: { dynamicRegistration?: boolean; metadataDocuments?: boolean }) => {
    await updateOrgSettings(server.deps, acme, change, SYSTEM);
  };

  test('off by default: no registration endpoint, not in discovery, and a metadata document URL is unknown', async () => {
    const doc = await discovery(issuer);
    assert.equal(doc.registration_endpoint, undefined);
    assert.equal(doc.client_id_metadata_document_supported, undefined);
    const res = await register(origin, { redirect_uris: [CALLBACK] }, address());
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
    assert.equal(res.headers.get('cache-control'), 'no-store');

    const documentUrl = host.document('/off/client.json', [CALLBACK], { client_name: 'Off' });
    const page = await fetch(authorizeUrl(issuer, documentUrl).url, { redirect: 'manual' });
    assert.equal(page.status, 400);
    assert.match(await page.text(), /this application is not known here/);
    assert.equal(host.hits.get('/off/client.json'), undefined, 'the document was never fetched');
  });

  test('on: discovery lists the org host’s endpoint; a registered client belongs to the org, public, audited', async () => {
    await set({ dynamicRegistration: true });
    const doc = await discovery(issuer);
    assert.equal(doc.registration_endpoint, `${origin}/oauth/register`);
    assert.equal(doc.client_id_metadata_document_supported, undefined, 'the other setting is still off');

    const res = await register(
      origin,
      { redirect_uris: [CALLBACK], client_name: 'Claude', application_type: 'native' },
      address(),
    );
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const { client_id, client_id_issued_at, ...rest } = res.body;
    assert.match(String(client_id), /^cli_/);
    assert.ok(Number.isInteger(client_id_issued_at));
    assert.deepEqual(rest, {
      client_name: 'Claude',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      application_type: 'native',
    });
    const row = await server.db
      .selectFrom('clients')
      .select(['org_id', 'kind', 'secret_hash', 'first_party'])
      .where('id', '=', String(client_id))
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { org_id: acme.id, kind: 'public', secret_hash: null, first_party: 0 });
    const audit = await server.db
      .selectFrom('audit_events')
      .select(['actor_kind', 'data'])
      .where('org_id', '=', acme.id)
      .where('key', '=', 'client.created')
      .execute();
    assert.deepEqual(
      audit.map((e) => [e.actor_kind, JSON.parse(e.data).id]),
      [['system', client_id]],
    );

    const web = await register(origin, { redirect_uris: [CALLBACK], application_type: 'web' }, address());
    assert.equal(web.body.application_type, 'web');
    const bad = await register(origin, { redirect_uris: [CALLBACK], application_type: 'service' }, address());
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body, {
      error: 'invalid_client_metadata',
      error_description: 'application_type must be web or native',
    });
  });

  test('the registered client signs the org’s users in, with consent every time, and never a console scope', async () => {
    const registered = await register(origin, { redirect_uris: [CALLBACK] }, address());
    const clientId = String(registered.body.client_id);
    const browser = new FormBrowser();
    const person = { email: 'ada@acme.test', password: PASSWORD };
    const callback = new URL(await signInThroughPages(browser, authorizeUrl(issuer, clientId).url, person));
    assert.ok(callback.searchParams.get('code'));
    assert.equal(callback.searchParams.get('iss'), issuer);
    // Signed in and allowed once: it is asked again.
    const again = authorizeUrl(issuer, clientId).url;
    assert.equal(new URL(locationOf(await browser.get(again), again)).pathname, '/consent');
    // A management scope is not the org issuer's to give.
    const console = authorizeUrl(issuer, clientId, { scope: 'openid org:read' }).url;
    const refused = new URL(locationOf(await browser.get(console), console));
    assert.equal(refused.searchParams.get('error'), 'invalid_scope');
  });

  test('10 registrations an hour per address on the org issuer, counted apart from the console’s', async () => {
    const from = address();
    for (let i = 0; i < 10; i++) {
      assert.equal((await register(origin, { redirect_uris: [CALLBACK] }, from)).status, 201, `#${i + 1}`);
    }
    const limited = await register(origin, { redirect_uris: [CALLBACK] }, from);
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { error: 'rate_limited' });
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await register(server.base, { redirect_uris: [CALLBACK] }, from)).status, 201);
  });

  test('metadata_documents on: discovery says so and a document’s URL is a client id of the org', async () => {
    await set({ metadataDocuments: true });
    assert.equal((await discovery(issuer)).client_id_metadata_document_supported, true);
    const documentUrl = host.document('/on/client.json', [CALLBACK], { client_name: 'Doc client' });
    const browser = new FormBrowser();
    const person = { email: 'ada@acme.test', password: PASSWORD };
    const callback = new URL(
      await signInThroughPages(browser, authorizeUrl(issuer, documentUrl).url, person),
    );
    assert.ok(callback.searchParams.get('code'));
    assert.equal(host.hits.get('/on/client.json'), 1);

    // Both off again: the endpoint is gone and the discovery says nothing of either.
    await set({ dynamicRegistration: false, metadataDocuments: false });
    const doc = await discovery(issuer);
    assert.deepEqual(
      [doc.registration_endpoint, doc.client_id_metadata_document_supported],
      [undefined, undefined],
    );
    assert.equal((await register(origin, { redirect_uris: [CALLBACK] }, address())).status, 404);
  });
});
