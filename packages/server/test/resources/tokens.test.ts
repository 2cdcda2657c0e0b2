import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createApiResource } from '../../src/domain/resources/api-resources.js';
import { setPermissionsOfClient } from '../../src/domain/resources/client-permissions.js';
import { createRole } from '../../src/domain/resources/roles.js';
import { setRolesOfUser } from '../../src/domain/resources/user-roles.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import * as resourceGrants from '../../src/storage/migrations/038-resource-grants.js';
import { FormBrowser, locationOf, signInThroughPages } from '../sign-in/support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';

const FILES = 'https://files.example/mcp';
const OTHER = 'https://other.example/api';
const UNREGISTERED = 'https://nobody.example/api';

const claimsOf = (token: unknown): Record<string, unknown> =>
  JSON.parse(Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString());

for (const database of storageSuite(
  'the resource grant stored with the authorization request as JSON (migration 038) and read back for the code',
)) {
  describe(`resource tokens: roles decide, aud bound to the consented resource, on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only this storage test runs; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'the code carries what the consent page showed: a role given after it adds nothing, one removed takes away',
      'migration 038 keeps a pending request’s resources: the space-separated column becomes a JSON list',
    ]);
    let server: TestServer;
    let acme: Org;
    let issuer: string;
    let appId: string;
    let strangerId: string;
    let editorRole: string;
    let viewerRole: string;
    let adaId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      acme = await makeOrg(server, 'acme');
      issuer = server.issuer('acme');
      const files = [
        { name: 'files:read', description: 'Read your files' },
        { name: 'files:write', description: 'Change your files' },
      ];
      await createApiResource(
        server.deps,
        acme,
        { identifier: FILES, name: 'Files', scopes: files, accessTokenTtl: 600 },
        SYSTEM,
      );
      await createApiResource(
        server.deps,
        acme,
        {
          identifier: OTHER,
          name: 'Other',
          scopes: [{ name: 'other:read', description: 'Read other things' }],
        },
        SYSTEM,
      );
      viewerRole = (
        await createRole(
          server.deps,
          acme,
          { name: 'viewer', permissions: [{ resource: FILES, scope: 'files:read' }] },
          SYSTEM,
        )
      ).id;
      editorRole = (
        await createRole(
          server.deps,
          acme,
          {
            name: 'editor',
            permissions: [
              { resource: FILES, scope: 'files:read' },
              { resource: FILES, scope: 'files:write' },
              { resource: OTHER, scope: 'other:read' },
            ],
          },
          SYSTEM,
        )
      ).id;
      const ada = await makeUser(server.deps, acme, 'ada@acme.test');
      adaId = ada.user.id;
      await setRolesOfUser(server.deps, acme, adaId, [editorRole], SYSTEM);
      await makeUser(server.deps, acme, 'bob@acme.test');
      appId = (await makeClient(server.deps, acme)).clientId;
      strangerId = (await makeClient(server.deps, acme, { name: 'Stranger app', firstParty: false }))
        .clientId;
    });
    after(async () => {
      if (!skip) await server.close();
    });

    /** Signs `email` in (first-party: no consent page) and returns the code and its verifier. */
    const authorize = async (email: string, extra: Record<string, string>) => {
      const a = authorizeUrl(issuer, appId, extra);
      const callback = await signInThroughPages(new FormBrowser(), a.url, { email, password: PASSWORD });
      return { params: new URL(callback).searchParams, verifier: a.verifier };
    };
    const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
      tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: appId,
        ...extra,
      });
    const refresh = (token: unknown, extra: Record<string, string> = {}) =>
      tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: String(token),
        client_id: appId,
        ...extra,
      });
    const signIn = async (email: string, extra: Record<string, string>) => {
      const { params, verifier } = await authorize(email, extra);
      const res = await exchange(params.get('code') ?? '', verifier);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };

    test('the token is for the consented resource: aud, scope, lifetime; removing a role stops the next refresh', {
      skip,
    }, async () => {
      const body = await signIn('ada@acme.test', { scope: 'openid files:read files:write', resource: FILES });
      const claims = claimsOf(body.access_token);
      assert.deepEqual(claims.aud, [appId, FILES]);
      assert.equal(claims.client_id, appId);
      assert.equal(claims.scope, 'files:read files:write');
      assert.equal(body.scope, 'files:read files:write');
      assert.equal(body.expires_in, 600);
      assert.equal(Number(claims.exp) - Number(claims.iat), 600);
      assert.equal(typeof body.id_token, 'string');

      // A resource token is its API's: this org's own APIs do not take it.
      assert.equal((await api(issuer, 'GET', 'oauth/userinfo', String(body.access_token))).status, 401);

      await setRolesOfUser(server.deps, acme, adaId, [viewerRole], SYSTEM);
      const fewer = await refresh(body.refresh_token);
      assert.equal(fewer.status, 200, JSON.stringify(fewer.body));
      assert.equal(claimsOf(fewer.body.access_token).scope, 'files:read');
      assert.equal(fewer.body.scope, 'files:read');
      await setRolesOfUser(server.deps, acme, adaId, [], SYSTEM);
      const none = await refresh(fewer.body.refresh_token);
      assert.equal(none.status, 200);
      assert.equal(claimsOf(none.body.access_token).scope, undefined);
      assert.deepEqual(claimsOf(none.body.access_token).aud, [appId, FILES]);
      await setRolesOfUser(server.deps, acme, adaId, [editorRole], SYSTEM);
    });

    test('a user without the role gets the token without the scope: dropped, not refused', {
      skip,
    }, async () => {
      const body = await signIn('bob@acme.test', { scope: 'files:read files:write', resource: FILES });
      const claims = claimsOf(body.access_token);
      assert.deepEqual(claims.aud, [appId, FILES]);
      assert.equal(claims.scope, undefined);
      assert.equal(body.scope, undefined);
      // Roles given later do not widen what was consented... nor does a refresh asking for more.
      const wider = await refresh(body.refresh_token, { scope: 'files:read' });
      assert.equal(wider.status, 400);
      assert.equal(wider.body.error, 'invalid_scope');
    });

    test('refresh narrows and never widens; resource picks a granted resource, another is invalid_target', {
      skip,
    }, async () => {
      const scope = 'openid files:read files:write other:read';
      const { params, verifier } = await authorize('ada@acme.test', {
        scope: 'openid files:read files:write',
        resource: FILES,
      });
      // Asked again by URL with two resources: each granted separately.
      const two = authorizeUrl(issuer, appId, { scope });
      const url = new URL(two.url);
      url.searchParams.append('resource', FILES);
      url.searchParams.append('resource', OTHER);
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const code2 = new URL(callback).searchParams.get('code') ?? '';

      const notGranted = await exchange(params.get('code') ?? '', verifier, { resource: OTHER });
      assert.equal(notGranted.status, 400, JSON.stringify(notGranted.body));
      assert.equal(notGranted.body.error, 'invalid_target', JSON.stringify(notGranted.body));
      // The refused exchange did not burn the code.
      const body = (await exchange(params.get('code') ?? '', verifier, { resource: FILES })).body;
      assert.deepEqual(claimsOf(body.access_token).aud, [appId, FILES]);

      const narrow = await refresh(body.refresh_token, { scope: 'openid files:read' });
      assert.equal(narrow.status, 200, JSON.stringify(narrow.body));
      assert.equal(claimsOf(narrow.body.access_token).scope, 'files:read');
      const widen = await refresh(narrow.body.refresh_token, { scope: 'openid files:read files:write' });
      assert.equal(widen.status, 400);
      assert.equal(widen.body.error, 'invalid_scope');
      const again = await refresh(narrow.body.refresh_token);
      assert.equal(claimsOf(again.body.access_token).scope, 'files:read');
      const other = await refresh(again.body.refresh_token, { resource: OTHER });
      assert.equal(other.body.error, 'invalid_target');

      const both = (await exchange(code2, two.verifier, { resource: OTHER })).body;
      assert.deepEqual(claimsOf(both.access_token).aud, [appId, OTHER]);
      assert.equal(claimsOf(both.access_token).scope, 'other:read');
      const files = await refresh(both.refresh_token, { resource: FILES });
      assert.deepEqual(claimsOf(files.body.access_token).aud, [appId, FILES]);
      assert.equal(claimsOf(files.body.access_token).scope, 'files:read files:write');
      const first = await refresh(files.body.refresh_token);
      assert.deepEqual(claimsOf(first.body.access_token).aud, [appId, FILES]);
      const unregistered = await refresh(first.body.refresh_token, { resource: UNREGISTERED });
      assert.equal(unregistered.body.error, 'invalid_target');
    });

    // The grant is decided once, at the consent page, and stored with the request: the code carries
    // what the page showed, narrowed by a role removed since, never widened by one given since.
    test('the code carries what the consent page showed: a role given after it adds nothing, one removed takes away', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      await signInThroughPages(browser, authorizeUrl(issuer, appId).url, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const consentThenAllow = async (between: () => Promise<unknown>) => {
        const a = authorizeUrl(issuer, strangerId, {
          scope: 'openid files:read files:write',
          resource: FILES,
        });
        const consent = locationOf(await browser.get(a.url), a.url);
        assert.equal(new URL(consent).pathname, '/consent');
        const page = await (await browser.get(consent)).text();
        await between();
        const answer = await browser.submit(consent, page, { decision: 'allow' });
        assert.equal(answer.status, 303);
        const code = new URL(locationOf(answer, consent)).searchParams.get('code') ?? '';
        const res = await tokenRequest(issuer, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CALLBACK,
          code_verifier: a.verifier,
          client_id: strangerId,
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return { page, claims: claimsOf(res.body.access_token), scope: res.body.scope };
      };
      const shows = (page: string) =>
        [...page.matchAll(/<ul class="resource-scopes">([\s\S]*?)<\/ul>/g)].map((m) => m[1]);

      await setRolesOfUser(server.deps, acme, adaId, [viewerRole], SYSTEM);
      const added = await consentThenAllow(() =>
        setRolesOfUser(server.deps, acme, adaId, [editorRole], SYSTEM),
      );
      assert.deepEqual(shows(added.page), ['<li>Read your files</li>']);
      assert.deepEqual(added.claims.aud, [strangerId, FILES]);
      assert.equal(added.claims.scope, 'files:read');
      assert.equal(added.scope, 'files:read');

      const removed = await consentThenAllow(() =>
        setRolesOfUser(server.deps, acme, adaId, [viewerRole], SYSTEM),
      );
      assert.deepEqual(shows(removed.page), ['<li>Read your files</li><li>Change your files</li>']);
      assert.deepEqual(removed.claims.aud, [strangerId, FILES]);
      assert.equal(removed.claims.scope, 'files:read');
      assert.equal(removed.scope, 'files:read');
      await setRolesOfUser(server.deps, acme, adaId, [editorRole], SYSTEM);
    });

    test('migration 038 keeps a pending request’s resources: the space-separated column becomes a JSON list', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      await signInThroughPages(browser, authorizeUrl(issuer, appId).url, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const a = authorizeUrl(issuer, strangerId, { scope: 'openid files:read other:read' });
      const url = new URL(a.url);
      url.searchParams.append('resource', FILES);
      url.searchParams.append('resource', OTHER);
      const consent = locationOf(await browser.get(url.href), url.href);
      const id = new URL(consent).searchParams.get('req') ?? '';
      // The database as it was before 038 (the request kept), then 038 again.
      const db = server.db as unknown as Kysely<unknown>;
      await resourceGrants.down(db);
      const before = await sql<{
        resource: string;
      }>`select resource from authorization_requests where id = ${id}`.execute(db);
      assert.deepEqual(before.rows, [{ resource: `${FILES} ${OTHER}` }]);
      await resourceGrants.up(db);
      const row = await server.db
        .selectFrom('authorization_requests')
        .select(['resources', 'resource_grant'])
        .where('id', '=', id)
        .executeTakeFirst();
      assert.deepEqual(row, { resources: JSON.stringify([FILES, OTHER]), resource_grant: null });

      const page = await (await browser.get(consent)).text();
      assert.match(page, /<ul class="resource-scopes"><li>Read your files<\/li><\/ul>/);
      assert.match(page, /<ul class="resource-scopes"><li>Read other things<\/li><\/ul>/);
      const answer = await browser.submit(consent, page, { decision: 'allow' });
      const code = new URL(locationOf(answer, consent)).searchParams.get('code') ?? '';
      const res = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: a.verifier,
        client_id: strangerId,
        resource: OTHER,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(claimsOf(res.body.access_token).aud, [strangerId, OTHER]);
      assert.equal(claimsOf(res.body.access_token).scope, 'other:read');
    });

    test('without resource, tokens are as before: aud the client id, no resource scope', {
      skip,
    }, async () => {
      const body = await signIn('ada@acme.test', { scope: 'openid' });
      const claims = claimsOf(body.access_token);
      assert.equal(claims.aud, appId);
      assert.equal(claims.scope, undefined);
      assert.equal(body.expires_in, 900);
      const res = await refresh(body.refresh_token, { resource: FILES });
      assert.equal(res.body.error, 'invalid_target');
    });
  });
}

describe('resource requests: authorization errors, consent, machine tokens, discovery (SQLite)', () => {
  let server: TestServer;
  let issuer: string;
  let appId: string;
  let thirdPartyId: string;
  let robot: { clientId: string; secret: string };

  before(async () => {
    server = await startServer({ webhooks: false });
    const acme = await makeOrg(server, 'acme');
    issuer = server.issuer('acme');
    const scopes = [
      { name: 'files:read', description: 'Read your files' },
      { name: 'files:write', description: 'Change your files' },
    ];
    await createApiResource(
      server.deps,
      acme,
      { identifier: FILES, name: 'Files', scopes, accessTokenTtl: 600 },
      SYSTEM,
    );
    await createApiResource(
      server.deps,
      acme,
      {
        identifier: OTHER,
        name: 'Other',
        scopes: [{ name: 'other:read', description: 'Read other things' }],
      },
      SYSTEM,
    );
    const role = await createRole(
      server.deps,
      acme,
      { name: 'viewer', permissions: [{ resource: FILES, scope: 'files:read' }] },
      SYSTEM,
    );
    const ada = await makeUser(server.deps, acme, 'ada@acme.test');
    await setRolesOfUser(server.deps, acme, ada.user.id, [role.id], SYSTEM);
    appId = (await makeClient(server.deps, acme)).clientId;
    thirdPartyId = (await makeClient(server.deps, acme, { name: 'Stranger app', firstParty: false }))
      .clientId;
    const machine = await makeClient(server.deps, acme, {
      name: 'Robot',
      kind: 'confidential',
      redirectUris: [],
    });
    robot = { clientId: machine.clientId, secret: machine.secret as string };
    await setPermissionsOfClient(
      server.deps,
      acme,
      robot.clientId,
      [{ resource: FILES, scope: 'files:read' }],
      SYSTEM,
    );
  });
  after(() => server.close());

  /** The error the authorize endpoint redirects back with. */
  const redirectedError = async (extra: Record<string, string>) => {
    const a = authorizeUrl(issuer, appId, extra);
    const res = await fetch(a.url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location') ?? '', a.url);
    assert.equal(location.origin + location.pathname, CALLBACK);
    assert.equal(location.searchParams.get('state'), a.state);
    return location.searchParams.get('error');
  };

  test('invalid_target for an unregistered resource; a resource scope needs its resource', async () => {
    assert.equal(await redirectedError({ resource: UNREGISTERED }), 'invalid_target');
    assert.equal(await redirectedError({ resource: `${FILES}#x` }), 'invalid_target');
    assert.equal(await redirectedError({ scope: 'files:read' }), 'invalid_scope');
    assert.equal(await redirectedError({ scope: 'files:read', resource: OTHER }), 'invalid_scope');
    assert.equal(await redirectedError({ scope: 'files:delete', resource: FILES }), 'invalid_scope');
  });

  test('the consent page names the resource and the scopes allowed, in their descriptions’ words', async () => {
    const browser = new FormBrowser();
    await signInThroughPages(browser, authorizeUrl(issuer, appId).url, {
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    const a = authorizeUrl(issuer, thirdPartyId, { scope: 'openid files:read files:write', resource: FILES });
    const answer = await browser.get(a.url);
    const consent = locationOf(answer, a.url);
    assert.equal(new URL(consent).pathname, '/consent');
    const page = await (await browser.get(consent)).text();
    assert.match(page, /<li>Know who you are<\/li>/);
    assert.match(
      page,
      /Use <strong>Files<\/strong> \(<span class="resource-identifier">https:\/\/files\.example\/mcp<\/span>\)/,
    );
    assert.match(page, /<ul class="resource-scopes"><li>Read your files<\/li><\/ul>/);
    assert.doesNotMatch(page, /Change your files/);
  });

  const machineToken = (extra: Record<string, string>) =>
    tokenRequest(issuer, {
      grant_type: 'client_credentials',
      client_id: robot.clientId,
      client_secret: robot.secret,
      ...extra,
    });

  test('a machine client gets exactly its permitted scopes for the resource it names', async () => {
    const res = await machineToken({ resource: FILES });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const claims = claimsOf(res.body.access_token);
    assert.deepEqual(claims.aud, [robot.clientId, FILES]);
    assert.equal(claims.sub, robot.clientId);
    assert.equal(claims.scope, 'files:read');
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(res.body.expires_in, 600);
    assert.equal((await machineToken({ resource: FILES, scope: 'files:read' })).body.scope, 'files:read');
    const unpermitted = await machineToken({ resource: FILES, scope: 'files:read files:write' });
    assert.equal(unpermitted.status, 400);
    assert.deepEqual(unpermitted.body, {
      error: 'invalid_scope',
      error_description: 'this client is not permitted files:write on that resource',
    });
    assert.equal((await machineToken({ resource: OTHER })).body.error, 'invalid_scope');
    assert.equal((await machineToken({ resource: UNREGISTERED })).body.error, 'invalid_target');
  });

  test('without resource, the spec’s machine token, unchanged', async () => {
    const res = await machineToken({ scope: 'files:read' });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(res.body.expires_in, 900);
    const claims = claimsOf(res.body.access_token);
    assert.deepEqual(Object.keys(claims).sort(), [
      'aud',
      'client_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'sub',
      'typ',
    ]);
    assert.equal(claims.aud, robot.clientId);
  });

  test('discovery lists the identity scopes and every resource scope', async () => {
    const doc = await (await fetch(new URL('.well-known/openid-configuration', issuer))).json();
    assert.deepEqual(doc.scopes_supported, [
      'openid',
      'profile',
      'email',
      'address',
      'phone',
      'offline_access',
      'files:read',
      'files:write',
      'other:read',
    ]);
  });
});
