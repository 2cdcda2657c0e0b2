import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import Provider from 'oidc-provider';
import type { Browser, Page } from 'playwright-core';
import { createConnection } from '../../src/domain/federation/connections.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { review } from '../console/support/console-browser.js';
import { authorizeUrl, makeClient, makeOrg, makeUser, tokenRequest } from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { screenshot } from '../support/screenshot.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { SamlIdp } from './support/saml-idp.js';

/** Where this suite's screenshots go: test-results/federation/, beside the other suites' (not /tmp). */
const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/federation/', import.meta.url));
const screenshotPath = (name: string) => `${SCREENSHOTS}${name}.png`;

const UPSTREAM_SECRET = 'upstream client secret 0123456789';

/**
 * Enterprise sign-in in Chromium, SQLite only (the storage is exercised on both databases by
 * saml-and-upstreams.test.ts): a real OpenID provider (oidc-provider, its own login and consent
 * pages answered in the browser) and a real SAML IdP (samlify, HTTP-POST) on 127.0.0.1. Typing a
 * company address on the org's login page goes upstream; the browser comes back to the client
 * with a code whose tokens name an org `usr_` with `amr` `fed`; the second time is the same user;
 * a connection without JIT refuses someone it does not know with a clear page.
 *
 * The client is a real page on 127.0.0.1 (its own port): the SAML IdP's page posts the answer to
 * the ACS by itself as the page loads, as real IdPs do (the ACS's continue page then posts on by
 * its own script, with the browser's binding cookie), and Playwright's request routing does not
 * always catch the redirect that follows such a navigation, so nothing here is routed.
 */
describe('enterprise sign-in in Chromium', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let upstream: Server;
  let client: Server;
  let callback: string;
  let idp: SamlIdp;
  let issuer: string;
  let org: Org;
  let clientId: string;
  const ids: Record<string, string> = {};

  before(async () => {
    if (skip) return;
    // The OpenID provider listens on 127.0.0.1: the outbound policy lets it be reached.
    server = await startServer({ env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' } });
    issuer = server.issuer('acme');
    org = await makeOrg(server, 'acme');
    client = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end('back at the client'),
    );
    const clientPort = await freePort();
    await new Promise<void>((resolve) => client.listen(clientPort, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${clientPort}/callback`;
    ({ clientId } = await makeClient(server.deps, org, {
      name: 'Acme Notes',
      firstParty: true,
      redirectUris: [callback],
    }));
    const port = await freePort();
    const upstreamIssuer = `http://127.0.0.1:${port}`;
    for (const [key, name, domain, jit] of [
      ['corp', 'Corp SSO', 'corp.test', true],
      ['partner', 'Partner SSO', 'partner.test', false],
    ] as const) {
      const c = await createConnection(
        server.deps,
        org,
        {
          type: 'oidc',
          name,
          domains: [domain],
          jit,
          issuer: upstreamIssuer,
          clientId: 'tessera',
          clientSecret: UPSTREAM_SECRET,
        },
        SYSTEM,
      );
      ids[key] = c.id;
    }
    const provider = new Provider(upstreamIssuer, {
      clients: [
        {
          client_id: 'tessera',
          client_secret: UPSTREAM_SECRET,
          redirect_uris: [ids.corp, ids.partner].map((id) => `${issuer}sso/${id}/callback`),
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      // The login the person types is their account (and `sub`); the address is verified.
      findAccount: async (_ctx, id) => ({
        accountId: id,
        claims: async () => ({ sub: id, email: id, email_verified: true, given_name: 'Alice' }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name'] },
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['upstream cookie key for the test run'] },
    });
    upstream = createServer(provider.callback());
    await new Promise<void>((resolve) => upstream.listen(port, '127.0.0.1', resolve));

    idp = await SamlIdp.start();
    const saml = await createConnection(
      server.deps,
      org,
      { type: 'saml', name: 'Corp SAML', domains: ['saml.test'], jit: true, metadataXml: idp.metadata() },
      SYSTEM,
    );
    ids.saml = saml.id;
    idp.trustSp(await (await fetch(`${issuer}saml/${saml.id}/metadata`)).text());
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await idp?.close();
    upstream?.closeAllConnections();
    await new Promise((resolve) => upstream?.close(resolve));
    client?.closeAllConnections();
    await new Promise((resolve) => client?.close(resolve));
    await server?.close();
  });

  /**
   * A fresh browser context. Its time limit is generous: the IdP checks each request against the
   * SAML schema, which takes long on a busy machine.
   */
  async function freshPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(120_000);
    return context.newPage();
  }

  const authorize = () => authorizeUrl(issuer, clientId, { scope: 'openid', redirect_uri: callback });

  /** Opens the org's login page for an authorization request and types `email`. */
  async function typeAddress(page: Page, email: string, screenshotAt?: string) {
    const { url, verifier } = authorize();
    await page.goto(url);
    await page.waitForURL((u) => u.pathname === '/login');
    if (screenshotAt) await screenshot(page, screenshotAt);
    await page.fill('#email', email);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    return verifier;
  }

  async function tokensAt(page: Page, verifier: string) {
    await page.waitForURL((u) => u.href.startsWith(callback));
    assert.equal(await page.locator('body').textContent(), 'back at the client');
    const code = new URL(page.url()).searchParams.get('code') ?? '';
    const { status, body } = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: callback,
      code_verifier: verifier,
      client_id: clientId,
    });
    assert.equal(status, 200, JSON.stringify(body));
    return { id: decodeJwt(body.id_token as string), access: decodeJwt(body.access_token as string) };
  }

  /** The provider's own pages: its login (any password), then its consent. */
  async function upstreamSignIn(page: Page, email: string) {
    await page.waitForURL(
      (u) => u.origin.startsWith('http://127.0.0.1') && u.pathname.startsWith('/interaction/'),
    );
    await page.fill('input[name=login]', email);
    await page.fill('input[name=password]', 'anything');
    await page.click('button[type=submit]');
    // A new session at the provider: it asks to share the claims once (its consent page).
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  test('OIDC: a self-service account with an unproved address gets the mailed-proof page, accessible at both sizes', {
    skip,
  }, async () => {
    const { user } = await makeUser(server.deps, org, 'bob@corp.test');
    await server.db.updateTable('users').set({ origin: 'sign_up' }).where('id', '=', user.id).execute();
    const page = await freshPage();
    await typeAddress(page, 'bob@corp.test');
    await upstreamSignIn(page, 'bob@corp.test');
    await page.getByRole('heading', { name: 'Confirm it is your account' }).waitFor();
    await review(page, 'federation-link-sent');
    await page.context().close();
  });

  test('OIDC: a corp address goes upstream and back; a usr_ with amr fed; the same user again', {
    skip,
  }, async () => {
    const subs: string[] = [];
    for (let round = 0; round < 2; round++) {
      const page = await freshPage();
      const verifier = await typeAddress(
        page,
        'alice@corp.test',
        round === 0 ? screenshotPath('login') : undefined,
      );
      await upstreamSignIn(page, 'alice@corp.test');
      const { id, access } = await tokensAt(page, verifier);
      assert.match(String(id.sub), /^usr_/);
      assert.deepEqual(id.amr, ['fed']);
      assert.deepEqual(access.amr, ['fed']);
      assert.equal(access.sub, id.sub);
      subs.push(String(id.sub));
      await page.context().close();
    }
    assert.equal(subs[0], subs[1]);
    const user = await server.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', subs[0] as string)
      .executeTakeFirstOrThrow();
    assert.equal(user.org_id, org.id);
    assert.equal(user.email, 'alice@corp.test');
    assert.equal(user.email_verified, 1);
    assert.equal(user.provider, 'oidc');
    const link = await server.db
      .selectFrom('federated_identities')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(
      link.map((l) => [l.connection_id, l.subject]),
      [[ids.corp, 'alice@corp.test']],
    );
  });

  test('OIDC: a connection without JIT refuses a person it does not know, with a clear page', {
    skip,
  }, async () => {
    const page = await freshPage();
    await typeAddress(page, 'bob@partner.test');
    await upstreamSignIn(page, 'bob@partner.test');
    await page.waitForURL((u) => u.pathname === `/sso/${ids.partner}/callback`);
    const alert = await page.getByRole('alert').textContent();
    assert.equal(
      alert,
      'There is no account for bob@partner.test in acme. Ask an administrator of acme to add you.',
    );
    assert.equal(await page.locator('h1').textContent(), 'Sign in');
    const users = await server.db
      .selectFrom('users')
      .select('email')
      .where('email', '=', 'bob@partner.test')
      .execute();
    assert.deepEqual(users, []);
    await page.context().close();
  });

  test('SAML: the login page shows a button per connection; the SAML one goes to the IdP with an AuthnRequest', {
    skip,
  }, async () => {
    const page = await freshPage();
    const { url } = authorize();
    await page.goto(url);
    await page.waitForURL((u) => u.pathname === '/login');
    const buttons = await page.locator('a.sso').allTextContents();
    assert.deepEqual(buttons, [
      'Sign in with Corp SSO',
      'Sign in with Partner SSO',
      'Sign in with Corp SAML',
    ]);
    await screenshot(page, screenshotPath('login-buttons'));
    await page.getByRole('link', { name: 'Sign in with Corp SAML' }).click();
    await page.waitForURL((u) => u.href.startsWith(`${idp.origin}/sso?SAMLRequest=`));
    // The request is the IdP's to read: it names this org's ACS and is the one the ACS expects back.
    const { extract } = (await idp.parseRequest(page.url())) as { extract: { request: { id: string } } };
    assert.match(extract.request.id, /^_[0-9a-f]{40}$/);
    assert.equal(await page.getByRole('button', { name: 'Sign in to the IdP' }).isVisible(), true);
    await page.context().close();
  });

  /** The IdP's own page: the person signs in there; its answer page posts to the ACS by itself. */
  async function idpSignIn(page: Page, email: string) {
    await page.waitForURL((u) => u.href.startsWith(`${idp.origin}/sso?SAMLRequest=`));
    await page.fill('input[name=email]', email);
    await page.getByRole('button', { name: 'Sign in to the IdP' }).click();
  }

  test('SAML: a corp address goes to the IdP, whose cross-site POST to the ACS lands on the client with a code; a usr_ with amr fed; the same user again', {
    skip,
  }, async () => {
    const subs: string[] = [];
    for (let round = 0; round < 2; round++) {
      const page = await freshPage();
      // The first time by the address's domain, the second by the connection's button.
      if (round === 0) {
        const verifier = await typeAddress(page, 'carol@saml.test');
        await idpSignIn(page, 'carol@saml.test');
        const { id, access } = await tokensAt(page, verifier);
        assert.match(String(id.sub), /^usr_/);
        assert.deepEqual(id.amr, ['fed']);
        assert.deepEqual(access.amr, ['fed']);
        assert.equal(access.sub, id.sub);
        subs.push(String(id.sub));
      } else {
        const { url, verifier } = authorize();
        await page.goto(url);
        await page.waitForURL((u) => u.pathname === '/login');
        await page.getByRole('link', { name: 'Sign in with Corp SAML' }).click();
        await idpSignIn(page, 'carol@saml.test');
        const { id } = await tokensAt(page, verifier);
        assert.deepEqual(id.amr, ['fed']);
        subs.push(String(id.sub));
      }
      // The ACS's continue page posted on same-site (with the binding cookie), and the login
      // cookie that step set is kept: the next request of the client goes straight back to it,
      // signed in, without the login page.
      const again = authorize();
      await page.goto(again.url);
      const next = await tokensAt(page, again.verifier);
      assert.equal(next.id.sub, subs[round]);
      await page.context().close();
    }
    assert.equal(subs[0], subs[1]);
    const user = await server.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', subs[0] as string)
      .executeTakeFirstOrThrow();
    assert.equal(user.org_id, org.id);
    assert.equal(user.email, 'carol@saml.test');
    assert.equal(user.provider, 'saml');
    const link = await server.db
      .selectFrom('federated_identities')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.deepEqual(
      link.map((l) => [l.connection_id, l.subject]),
      [[ids.saml, 'carol@saml.test']],
    );
  });
});
