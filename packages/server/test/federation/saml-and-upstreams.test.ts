import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe } from 'node:test';
import { decodeJwt } from 'jose';
import Provider from 'oidc-provider';
import { createApiResource } from '../../src/domain/resources/api-resources.js';
import { createRole } from '../../src/domain/resources/roles.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { call, ownerMemberStranger } from '../management/support/console.js';
import { FormBrowser, locationOf, readForm } from '../sign-in/support/browser.js';
import { authorizeUrl, CALLBACK, makeClient, makeUser, tokenRequest } from '../sign-in/support/fixtures.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { ClaimsUpstream } from './support/claims-upstream.js';
import { makeSigningCertificate, SamlIdp } from './support/saml-idp.js';

/**
 * Enterprise sign-in without a browser: connections, the links between upstream people and users,
 * the requests sent upstream (single use) and the SAML assertion ids seen (replay). A real SAML IdP
 * (samlify) answers over HTTP-POST; its answers are posted to the ACS with fetch, as its page's
 * form would. Forged, misaddressed, expired, replayed and other-issuer answers, and answers naming
 * the person with control characters, are refused with the login page, never a 500; so is an OIDC
 * upstream that is down, answers garbage, or puts a NUL in `sub` (on PostgreSQL too, which cannot
 * store one: that test runs on both databases, the rest on SQLite). A person the connection creates (JIT) holds its
 * default roles, and their token carries what those roles allow.
 *
 * A sign-in is bound to the browser that started it (its `tessera_federation` cookie): the ACS
 * answers a continue page whose form the same browser posts on with its cookies, and an answer (or
 * an OIDC callback) delivered to another browser signs nobody in.
 */
const NOTES = 'https://notes.example/api';
const UPSTREAM_SECRET = 'upstream client secret 0123456789';
const OTHER_BROWSER =
  /This sign-in was started in another browser, or this browser did not keep its cookie\. Sign in again here\./;

/** The one test whose storage differs: PostgreSQL cannot store a NUL, SQLite can. */
const NUL_TEST =
  'an OIDC upstream naming someone with a control character (a NUL in sub, …) gets the login page, never a 500';

for (const database of storageSuite(
  'a NUL or lone surrogate from an upstream cannot be stored in PostgreSQL',
)) {
  describe(`enterprise sign-in (SAML, management API, broken upstreams) on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(database, [NUL_TEST]);
    let server: TestServer;
    let idp: SamlIdp;
    let forger: SamlIdp;
    let garbage: Server;
    let upstream: Server;
    let upstreamIssuer: string;
    let claimsUpstream: ClaimsUpstream;
    let acme: Org;
    let owner: string;
    let member: string;
    let issuer: string;
    let clientId: string;
    let saml: Record<string, unknown>;
    let engineer: string;

    before(async () => {
      if (skip) return;
      // The upstreams of these tests listen on 127.0.0.1: the outbound policy lets them be reached.
      server = await startServer({ database, env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' } });
      ({ acme, owner, member } = await ownerMemberStranger(server));
      issuer = server.issuer('acme');
      ({ clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes', firstParty: true }));
      const scopes = [
        { name: 'notes:read', description: 'Read your notes' },
        { name: 'notes:write', description: 'Change your notes' },
      ];
      await createApiResource(server.deps, acme, { identifier: NOTES, name: 'Notes', scopes }, SYSTEM);
      const role = (name: string, scope: string) =>
        createRole(server.deps, acme, { name, permissions: [{ resource: NOTES, scope }] }, SYSTEM);
      engineer = (await role('engineer', 'notes:read')).id;
      await role('editor', 'notes:write');
      idp = await SamlIdp.start();
      // Another key posing as the same IdP: what it signs must never be accepted.
      forger = await SamlIdp.start({ keys: makeSigningCertificate('forger'), entityId: idp.entityId });
      garbage = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"garbage'),
      );
      await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
      // A real OpenID provider: its discovery is what a sign-in needs to go out.
      const port = await freePort();
      upstreamIssuer = `http://127.0.0.1:${port}`;
      const provider = new Provider(upstreamIssuer, {
        clients: [
          {
            client_id: 'tessera',
            client_secret: UPSTREAM_SECRET,
            redirect_uris: [`${issuer}sso/callback`],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        cookies: { keys: ['upstream cookie key for the test run'] },
      });
      upstream = createServer(provider.callback());
      await new Promise<void>((resolve) => upstream.listen(port, '127.0.0.1', resolve));
      claimsUpstream = await ClaimsUpstream.start();
    });
    after(async () => {
      if (skip) return;
      await idp?.close();
      await forger?.close();
      await new Promise((resolve) => garbage?.close(resolve));
      upstream?.closeAllConnections();
      await new Promise((resolve) => upstream?.close(resolve));
      await claimsUpstream?.close();
      await server?.close();
    });

    test('owners create a SAML connection from IdP metadata; members may not; the SP metadata is served', {
      skip,
    }, async () => {
      const refused = await call(server, 'POST', '/organizations/acme/connections', member, {
        type: 'saml',
        name: 'Corp IdP',
        metadata_xml: idp.metadata(),
      });
      assert.equal(refused.status, 403);
      const bad = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'saml',
        name: 'Corp IdP',
        metadata_xml: '<not-metadata/>',
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error_detail, /metadata_xml: not SAML IdP metadata/);
      const unknownRole = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'saml',
        name: 'Corp IdP',
        jit: true,
        default_roles: [engineer, 'rol_nosuchrole0000000000'],
        metadata_xml: idp.metadata(),
      });
      assert.equal(unknownRole.status, 400);
      assert.deepEqual(unknownRole.body, {
        error: 'invalid_request',
        error_detail: 'default_roles: "rol_nosuchrole0000000000" is not a role of this organization',
      });

      const res = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'saml',
        name: 'Corp IdP',
        domains: ['Corp.test'],
        jit: true,
        default_roles: [engineer, engineer],
        metadata_xml: idp.metadata(),
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      saml = res.body;
      const id = saml.id as string;
      assert.match(id, /^con_/);
      assert.deepEqual(saml.domains, ['corp.test']);
      assert.deepEqual(saml.default_roles, [engineer]);
      assert.equal(saml.acs_url, `${issuer}saml/${id}/acs`);
      assert.equal(saml.sp_metadata_url, `${issuer}saml/${id}/metadata`);
      assert.equal(saml.sp_entity_id, saml.sp_metadata_url);
      assert.deepEqual((saml.saml as Record<string, unknown>).idp_entity_id, idp.entityId);
      assert.deepEqual((saml.saml as Record<string, unknown>).sso_url, `${idp.origin}/sso`);

      const conflict = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'saml',
        name: 'Other',
        domains: ['corp.test'],
        metadata_xml: idp.metadata(),
      });
      assert.equal(conflict.status, 409);

      const metadata = await fetch(saml.sp_metadata_url as string);
      assert.equal(metadata.status, 200);
      assert.match(metadata.headers.get('content-type') ?? '', /^application\/samlmetadata\+xml/);
      const xml = await metadata.text();
      assert.match(xml, new RegExp(`entityID="${saml.sp_entity_id}"`));
      assert.match(xml, new RegExp(`Location="${saml.acs_url}"`));
      assert.match(xml, /WantAssertionsSigned="true"/);
      idp.trustSp(xml);

      const audit = await server.db
        .selectFrom('audit_events')
        .select(['entity', 'verb', 'data'])
        .where('org_id', '=', acme.id)
        .where('entity', '=', 'connection')
        .execute();
      assert.deepEqual(
        audit.map((a) => a.verb),
        ['created'],
      );
    });

    /** The IdP request behind the login page's way out to the connection, for an authorization request. */
    async function startSignIn(browser: FormBrowser, params: Record<string, string> = { scope: 'openid' }) {
      const { url, verifier } = authorizeUrl(issuer, clientId, params);
      const login = await browser.get(url);
      const loginUrl = locationOf(login, url);
      const reqId = new URL(loginUrl).searchParams.get('req') ?? '';
      const start = await browser.get(`${issuer}sso/${saml.id}/start?req=${reqId}`);
      assert.equal(start.status, 303);
      const upstream = start.headers.get('location') ?? '';
      assert.ok(upstream.startsWith(`${idp.origin}/sso?SAMLRequest=`), upstream);
      return { request: await idp.parseRequest(upstream), verifier };
    }

    const postToAcs = (browser: FormBrowser, response: string) =>
      browser.post(saml.acs_url as string, { SAMLResponse: response });

    /** The ACS's continue page for an accepted answer: its form, posted as the page's script would. */
    async function continuePage(res: Response) {
      assert.equal(res.status, 200, await res.clone().text());
      const page = await res.text();
      assert.match(page, /<h1>Signing you in…<\/h1>/);
      assert.match(page, /<noscript><button type="submit">Continue<\/button><\/noscript>/);
      assert.match(page, /<script src="\/sso\/continue\.js"><\/script>/);
      const form = readForm(page);
      assert.equal(form.action, `/sso/${saml.id}/continue`);
      assert.deepEqual(Object.keys(form.hidden), ['answer']);
      return { url: new URL(form.action, issuer).href, fields: form.hidden };
    }

    /** The IdP's answer posted to the ACS, then on from the continue page by the same browser. */
    async function answerAt(browser: FormBrowser, response: string) {
      const next = await continuePage(await postToAcs(browser, response));
      return browser.post(next.url, next.fields);
    }

    async function refusedPage(res: Response, words: RegExp) {
      assert.equal(res.status, 400);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      const page = await res.text();
      assert.match(page, /<h1>Sign in<\/h1>/);
      assert.match(page, words);
    }

    test('a signed answer signs a new person in (JIT): a usr_ of the org, amr fed, the default roles; again the same user', {
      skip,
    }, async () => {
      const subs: string[] = [];
      for (let round = 0; round < 2; round++) {
        const browser = new FormBrowser();
        // The client asks for the notes API: the token carries what the default role allows.
        const { request, verifier } = await startSignIn(browser, {
          scope: 'openid notes:read notes:write',
          resource: NOTES,
        });
        const answer = await answerAt(browser, await idp.respond(request, 'alice@corp.test'));
        assert.equal(answer.status, 303, await answer.clone().text());
        const callback = answer.headers.get('location') ?? '';
        assert.ok(callback.startsWith(CALLBACK), callback);
        const code = new URL(callback).searchParams.get('code') ?? '';
        const tokens = await tokenRequest(issuer, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CALLBACK,
          code_verifier: verifier,
          client_id: clientId,
        });
        assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
        const id = decodeJwt(tokens.body.id_token as string);
        const access = decodeJwt(tokens.body.access_token as string);
        assert.match(String(id.sub), /^usr_/);
        assert.deepEqual(id.amr, ['fed']);
        assert.deepEqual(access.amr, ['fed']);
        assert.equal(access.scope, 'notes:read');
        assert.deepEqual(access.aud, [clientId, NOTES]);
        assert.equal(id.email, undefined);
        subs.push(String(id.sub));
      }
      assert.equal(subs[0], subs[1]);
      const roles = await call(server, 'GET', `/organizations/acme/users/${subs[0]}/roles`, owner);
      assert.equal(roles.status, 200);
      assert.deepEqual(
        roles.body.data.map((r: { id: string; name: string }) => [r.id, r.name]),
        [[engineer, 'engineer']],
      );
      const user = await server.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', subs[0] as string)
        .executeTakeFirstOrThrow();
      assert.equal(user.org_id, acme.id);
      assert.equal(user.email, 'alice@corp.test');
      assert.equal(user.provider, 'saml');
      assert.equal(user.password_hash, null);
      const links = await server.db.selectFrom('federated_identities').selectAll().execute();
      assert.deepEqual(
        links.map((l) => [l.connection_id, l.subject, l.user_id]),
        [[saml.id, 'alice@corp.test', subs[0]]],
      );
    });

    /** The session cookie a response sets, if any. */
    const sessionSet = (res: Response) =>
      res.headers.getSetCookie().some((c) => c.startsWith('tessera_session='));

    test('an answer delivered to another browser signs nobody in; in the browser that started it, it completes, once', {
      skip,
    }, async () => {
      const started = new FormBrowser();
      const { request } = await startSignIn(started);
      const binding = started.cookies(issuer).get('tessera_federation');
      assert.ok(binding);

      // The attacker's answer, delivered by a victim's browser: the ACS accepts it and hands over a
      // continue page, but that browser carries no binding cookie, so the continue step refuses it.
      const victim = new FormBrowser();
      const acs = await postToAcs(victim, await idp.respond(request, 'dave@corp.test'));
      assert.equal(sessionSet(acs), false);
      const csp = acs.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self';/);
      assert.match(csp, new RegExp(`form-action 'self' ${new URL(CALLBACK).origin};`));
      const next = await continuePage(acs);
      const refused = await victim.post(next.url, next.fields);
      assert.equal(sessionSet(refused), false);
      await refusedPage(refused, OTHER_BROWSER);

      // A browser with a binding cookie of its own (it started a sign-in too) is refused as well.
      const other = new FormBrowser();
      await startSignIn(other);
      assert.notEqual(other.cookies(issuer).get('tessera_federation'), binding);
      const alsoRefused = await other.post(next.url, next.fields);
      assert.equal(sessionSet(alsoRefused), false);
      await refusedPage(alsoRefused, OTHER_BROWSER);
      const nobody = await server.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'dave@corp.test')
        .execute();
      assert.deepEqual(nobody, []);

      // The browser that started the sign-in goes on with the same continue page: signed in.
      const done = await started.post(next.url, next.fields);
      assert.equal(done.status, 303, await done.clone().text());
      assert.ok((done.headers.get('location') ?? '').startsWith(CALLBACK));
      assert.equal(sessionSet(done), true);
      // The continue id is single use.
      const again = await started.post(next.url, next.fields);
      assert.equal(sessionSet(again), false);
      await refusedPage(again, /This sign-in link has expired or was already used\. Start again\./);
      await refusedPage(
        await started.post(next.url, { answer: 'not-an-answer' }),
        /This sign-in link has expired or was already used\./,
      );
    });

    test('the binding cookie is HttpOnly, SameSite=Lax, for /sso only, as long-lived as the sign-in; the continue script is served', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const start = await browser.get(`${issuer}sso/${saml.id}/start`);
      assert.equal(start.status, 303);
      const cookie = start.headers.getSetCookie().find((c) => c.startsWith('tessera_federation=')) ?? '';
      assert.match(cookie, /; Max-Age=600;/);
      assert.match(cookie, /; Path=\/sso;/);
      assert.match(cookie, /; HttpOnly;/);
      assert.match(cookie, /; SameSite=Lax$/);
      // Starting again in the same browser keeps its binding, so two sign-ins in two tabs both go on.
      const first = browser.cookies(issuer).get('tessera_federation');
      assert.equal((await browser.get(`${issuer}sso/${saml.id}/start`)).status, 303);
      assert.equal(browser.cookies(issuer).get('tessera_federation'), first);

      const script = await fetch(`${issuer}sso/continue.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.match(await script.text(), /form\.submit\(\)/);
    });

    test('a forged signature is refused with the login page', { skip }, async () => {
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      forger.trustSp(await (await fetch(saml.sp_metadata_url as string)).text());
      const res = await postToAcs(browser, await forger.respond(request, 'alice@corp.test'));
      await refusedPage(res, /The answer from Corp IdP was refused: its signature does not check out\./);
    });

    test('an answer signed only as a whole (the Response, not its assertion) is refused, saying so', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      const metadata = await (await fetch(saml.sp_metadata_url as string)).text();
      // An IdP that signs only the message: what it does for an SP that does not want assertions signed.
      idp.trustSp(metadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'));
      try {
        const answer = await idp.respond(request, 'alice@corp.test');
        const xml = Buffer.from(answer, 'base64').toString('utf8');
        assert.match(xml, /<samlp:Response[^>]*>[\s\S]*<ds:Signature[\s\S]*<saml:Assertion/);
        assert.doesNotMatch(xml.slice(xml.indexOf('<saml:Assertion')), /<ds:Signature/);
        await refusedPage(
          await postToAcs(browser, answer),
          /The answer from Corp IdP was refused: its assertion is not signed \(only the whole response is\): set the identity provider to sign the assertion\./,
        );
      } finally {
        idp.trustSp(metadata);
      }
    });

    test('an answer meant for another service (audience) is refused', { skip }, async () => {
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      const res = await postToAcs(
        browser,
        await idp.respond(request, 'alice@corp.test', { Audience: 'https://other.example/sp' }),
      );
      await refusedPage(res, /refused: it was meant for another service\./);
    });

    test("an assertion whose Issuer is not the connection's IdP is refused, though its signature checks out", {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      const res = await postToAcs(
        browser,
        await idp.respond(request, 'alice@corp.test', { Issuer: 'https://other-idp.example/metadata' }),
      );
      assert.equal(sessionSet(res), false);
      await refusedPage(
        res,
        /<p[^>]*>The answer from Corp IdP was refused: it comes from another identity provider\. Start again\.<\/p>/,
      );
    });

    test('control characters in the NameID or an attribute refuse the answer; nobody is created or linked', {
      skip,
    }, async () => {
      const answers = [
        ['nel\u0085@corp.test', {}],
        ['tab\u0009@corp.test', {}],
        ['del@corp.test', { firstName: 'De\u007fl' }],
        ['csi@corp.test', { lastName: 'Red\u009b31m' }],
      ] as const;
      for (const [nameId, attributes] of answers) {
        const browser = new FormBrowser();
        const { request } = await startSignIn(browser);
        const res = await postToAcs(browser, await idp.respond(request, nameId, {}, attributes));
        assert.equal(sessionSet(res), false);
        await refusedPage(
          res,
          /<p[^>]*>The answer from Corp IdP was refused: it contains control characters\. Start again\.<\/p>/,
        );
      }
      const stored = await server.db
        .selectFrom('users')
        .select('email')
        .where('email', 'in', ['del@corp.test', 'csi@corp.test'])
        .execute();
      assert.deepEqual(stored, []);
      const links = await server.db
        .selectFrom('federated_identities')
        .select('subject')
        .where(
          'subject',
          'in',
          answers.map(([nameId]) => nameId),
        )
        .execute();
      assert.deepEqual(links, []);
    });

    test('an expired assertion is refused', { skip }, async () => {
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      const past = new Date(Date.now() - 10 * 60_000).toISOString();
      const longAgo = new Date(Date.now() - 20 * 60_000).toISOString();
      const res = await postToAcs(
        browser,
        await idp.respond(request, 'alice@corp.test', {
          IssueInstant: longAgo,
          ConditionsNotBefore: longAgo,
          ConditionsNotOnOrAfter: past,
          SubjectConfirmationDataNotOnOrAfter: past,
        }),
      );
      await refusedPage(res, /refused: it has expired\./);
    });

    test('a replayed answer is refused; so is one that answers no request of ours', { skip }, async () => {
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      const response = await idp.respond(request, 'alice@corp.test');
      assert.equal((await answerAt(browser, response)).status, 303);
      await refusedPage(
        await postToAcs(new FormBrowser(), response),
        /refused: it does not answer a sign-in started here, or it was already used\./,
      );
      const unsolicited = await idp.respond(
        { extract: { request: { id: '_never_sent' } } },
        'alice@corp.test',
        { InResponseTo: '_never_sent' },
      );
      await refusedPage(
        await postToAcs(new FormBrowser(), unsolicited),
        /refused: it does not answer a sign-in started here/,
      );
      await refusedPage(
        await postToAcs(new FormBrowser(), 'bm90IHhtbA=='),
        /refused: it is not a valid SAML response\./,
      );
    });

    test('a local user with the same address is linked only on a claimed domain', { skip }, async () => {
      await makeUser(server.deps, acme, 'bob@corp.test');
      await makeUser(server.deps, acme, 'eve@elsewhere.test');
      const browser = new FormBrowser();
      const { request } = await startSignIn(browser);
      assert.equal((await answerAt(browser, await idp.respond(request, 'bob@corp.test'))).status, 303);
      const bob = await server.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'bob@corp.test')
        .executeTakeFirstOrThrow();
      const link = await server.db
        .selectFrom('federated_identities')
        .select('user_id')
        .where('subject', '=', 'bob@corp.test')
        .executeTakeFirstOrThrow();
      assert.equal(link.user_id, bob.id);
      // Linking an existing user leaves their roles as they were (none): default roles are for JIT.
      const roles = await call(server, 'GET', `/organizations/acme/users/${bob.id}/roles`, owner);
      assert.equal(roles.status, 200);
      assert.deepEqual(roles.body.data, []);

      const other = new FormBrowser();
      const again = await startSignIn(other);
      const res = await answerAt(other, await idp.respond(again.request, 'eve@elsewhere.test'));
      assert.equal(res.status, 403);
      assert.match(
        await res.text(),
        /An account for eve@elsewhere\.test exists here but is not linked to Corp IdP\. Sign in with your password instead\./,
      );
    });

    test('an OIDC upstream that is down, or answers garbage, gives the login page with an error', {
      skip,
    }, async () => {
      const downPort = await freePort();
      const address = garbage.address();
      const garbagePort = typeof address === 'object' && address ? address.port : 0;
      for (const [name, port, domain] of [
        ['Down IdP', downPort, 'down.test'],
        ['Garbage IdP', garbagePort, 'garbage.test'],
      ] as const) {
        const created = await call(server, 'POST', '/organizations/acme/connections', owner, {
          type: 'oidc',
          name,
          domains: [domain],
          issuer: `http://127.0.0.1:${port}/`,
          client_id: 'tessera',
          client_secret: 'upstream secret 123',
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.client_secret, undefined);
        assert.equal(created.body.callback_url, `${issuer}sso/${created.body.id}/callback`);
        const row = await server.db
          .selectFrom('connections')
          .select('sealed_secret')
          .where('id', '=', created.body.id)
          .executeTakeFirstOrThrow();
        assert.ok(row.sealed_secret?.startsWith('v1.'));
        assert.ok(!row.sealed_secret?.includes('upstream secret'));

        // Email-domain discovery from the login form, then the way out.
        const browser = new FormBrowser();
        const login = await browser.get(`${issuer}login`);
        const page = await login.text();
        assert.match(
          page,
          new RegExp(`<a class="sso" href="/sso/${created.body.id}/start">Sign in with ${name}</a>`),
        );
        const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
        const posted = await browser.post(`${issuer}login`, { csrf, email: `carol@${domain}`, password: '' });
        assert.equal(posted.status, 303);
        const start = locationOf(posted, `${issuer}login`);
        assert.equal(start, `${issuer}sso/${created.body.id}/start?login_hint=carol%40${domain}`);
        const res = await browser.get(start);
        assert.equal(res.status, 502);
        const html = await res.text();
        assert.match(html, /<h1>Sign in<\/h1>/);
        assert.match(
          html,
          new RegExp(
            `${name} cannot be reached right now or did not answer as an OpenID provider\\. Try again later\\.`,
          ),
        );
      }
      // The callback with nothing sent upstream: the login page again.
      const list = await call(server, 'GET', '/organizations/acme/connections', owner);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((c: { name: string }) => c.name),
        ['Corp IdP', 'Down IdP', 'Garbage IdP'],
      );
      const down = list.body[1].id as string;
      const stray = await fetch(`${issuer}sso/${down}/callback?code=x&state=y`);
      assert.equal(stray.status, 400);
      assert.match(await stray.text(), /This sign-in link has expired or was already used\. Start again\./);
    });

    test('update and delete are audited; the secret is never shown', { skip }, async () => {
      const list = await call(server, 'GET', '/organizations/acme/connections', owner);
      const down = list.body[1].id as string;
      const patched = await call(server, 'PATCH', `/organizations/acme/connections/${down}`, owner, {
        name: 'Down IdP (old)',
        client_secret: 'another secret',
        default_roles: [engineer],
      });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.name, 'Down IdP (old)');
      assert.deepEqual(patched.body.default_roles, [engineer]);
      assert.equal(JSON.stringify(patched.body).includes('secret'), false);
      const wrongType = await call(server, 'PATCH', `/organizations/acme/connections/${down}`, owner, {
        certificate: 'x',
      });
      assert.equal(wrongType.status, 400);
      const unknownRole = await call(server, 'PATCH', `/organizations/acme/connections/${down}`, owner, {
        default_roles: ['rol_nosuchrole0000000000'],
      });
      assert.equal(unknownRole.status, 400);
      assert.deepEqual(unknownRole.body, {
        error: 'invalid_request',
        error_detail: 'default_roles: "rol_nosuchrole0000000000" is not a role of this organization',
      });
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/connections/${down}`, owner)).status,
        204,
      );
      assert.equal((await call(server, 'GET', `/organizations/acme/connections/${down}`, owner)).status, 404);
      const verbs = await server.db
        .selectFrom('audit_events')
        .select(['verb', 'data'])
        .where('org_id', '=', acme.id)
        .where('entity', '=', 'connection')
        .orderBy('at')
        .execute();
      assert.deepEqual(
        verbs.map((v) => v.verb),
        ['created', 'created', 'created', 'updated', 'deleted'],
      );
      assert.ok(verbs.every((v) => !v.data.includes('secret')));
      const logins = await server.db
        .selectFrom('audit_events')
        .select('data')
        .where('org_id', '=', acme.id)
        .where('verb', '=', 'login')
        .execute();
      assert.ok(logins.some((l) => JSON.parse(l.data).connectionId === saml.id));
    });

    test('an OIDC callback in a browser that did not start the sign-in is refused with the login page, and left to its own browser', {
      skip,
    }, async () => {
      const created = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'oidc',
        name: 'Upstream IdP',
        domains: ['upstream.test'],
        issuer: upstreamIssuer,
        client_id: 'tessera',
        client_secret: UPSTREAM_SECRET,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const con = created.body.id as string;
      const started = new FormBrowser();
      const start = await started.get(`${issuer}sso/${con}/start`);
      assert.equal(start.status, 303, await start.clone().text());
      const authorization = new URL(start.headers.get('location') ?? '');
      assert.equal(authorization.origin, upstreamIssuer);
      assert.ok(started.cookies(issuer).get('tessera_federation'));
      const state = authorization.searchParams.get('state') ?? '';
      // What an attacker would make a victim's browser open: a callback with their own code.
      const callback = `${issuer}sso/${con}/callback?code=the-attackers-code&state=${state}`;

      const victim = new FormBrowser();
      const refused = await victim.get(callback);
      assert.equal(sessionSet(refused), false);
      await refusedPage(refused, OTHER_BROWSER);
      const other = new FormBrowser();
      assert.equal((await other.get(`${issuer}sso/${con}/start`)).status, 303);
      const alsoRefused = await other.get(callback);
      assert.equal(sessionSet(alsoRefused), false);
      await refusedPage(alsoRefused, OTHER_BROWSER);

      // Still there for the browser that started it: there the code is redeemed (the upstream
      // refuses a made-up one), which uses the sign-in up.
      const own = await started.get(callback);
      assert.equal(own.status, 502);
      assert.match(
        await own.text(),
        /The answer from Upstream IdP was not accepted: its sign-in could not be verified\./,
      );
      await refusedPage(
        await started.get(callback),
        /This sign-in link has expired or was already used\. Start again\./,
      );
    });

    test(NUL_TEST, { skip }, async () => {
      const created = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'oidc',
        name: 'Claims IdP',
        domains: ['claims.test'],
        jit: true,
        issuer: claimsUpstream.issuer,
        client_id: 'tessera',
        client_secret: UPSTREAM_SECRET,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const con = created.body.id as string;
      /** A sign-in through the connection whose upstream says `claims`: the callback's answer. */
      async function signInSaying(claims: Record<string, unknown>) {
        claimsUpstream.claims = claims;
        const browser = new FormBrowser();
        const start = await browser.get(`${issuer}sso/${con}/start`);
        assert.equal(start.status, 303, await start.clone().text());
        const answered = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
        const callback = answered.headers.get('location') ?? '';
        assert.ok(callback.startsWith(`${issuer}sso/${con}/callback?`), callback);
        return browser.get(callback);
      }
      const verified = { email_verified: true };
      for (const claims of [
        { sub: 'nul\u0000', email: 'nul@claims.test', ...verified },
        { sub: 'lone\ud800', email: 'lone@claims.test', ...verified },
        { sub: 'bel', email: 'bel\u0007@claims.test', ...verified },
        { sub: 'lf', email: 'lf@claims.test', given_name: 'Line\nFeed', ...verified },
        { sub: 'csi', email: 'csi@claims.test', family_name: 'Red\u009b31m', ...verified },
      ]) {
        const res = await signInSaying(claims);
        assert.equal(res.status, 502, JSON.stringify(claims));
        assert.equal(sessionSet(res), false);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(
          await res.text(),
          /<p[^>]*>The answer from Claims IdP was refused: it contains control characters\. Start again\.<\/p>/,
        );
      }
      // The same upstream saying plain text signs the person in: it was the characters.
      const fine = await signInSaying({
        sub: 'fine',
        email: 'fine@claims.test',
        given_name: 'Fine',
        ...verified,
      });
      assert.equal(fine.status, 303, await fine.clone().text());
      assert.equal(sessionSet(fine), true);
      const users = await server.db
        .selectFrom('users')
        .select(['email', 'first_name'])
        .where('email', 'like', '%claims.test')
        .execute();
      assert.deepEqual(users, [{ email: 'fine@claims.test', first_name: 'Fine' }]);
      const links = await server.db
        .selectFrom('federated_identities')
        .select('subject')
        .where('connection_id', '=', con)
        .execute();
      assert.deepEqual(links, [{ subject: 'fine' }]);
    });
  });
}
