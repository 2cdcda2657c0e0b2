import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, UnsecuredJWT } from 'jose';
import { signIdToken } from '../../src/crypto/id-token.js';
import { sha256 } from '../../src/crypto/random.js';
import type { Org } from '../../src/domain/types.js';
import { insertFederatedIdentity } from '../../src/storage/repos/connections.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { type FilesServer, startFilesServer } from '../resources/support/mcp-files-server.js';
import { FormBrowser, signInThroughPages } from '../sign-in/support/browser.js';
import {
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeUser,
  PASSWORD,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  type JoseAuthorizationServer,
  startJoseAuthorizationServer,
} from './support/jose-authorization-server.js';
import { type JoseIssuer, startJoseIssuer } from './support/jose-issuer.js';

// Enterprise-Managed Authorization (issue #46, DESIGN §20), both halves on one server: `acme` is
// the enterprise identity provider (org A), `tools` the MCP server's authorization server (org B),
// which trusts acme through an OIDC connection; a provider written with jose (org C) is trusted by
// tools too, and an authorization server written with jose takes acme's ID-JAGs. Every answer of a
// declared operation is checked against its declaration. Both databases: the trusted apps and the
// jti replay table are storage.

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

const oauthError = (error: string, description: string) => ({ error, error_description: description });
const REFUSED = {
  notConfidential: oauthError(
    'unauthorized_client',
    'only a confidential client of this organization may use Enterprise-Managed Authorization',
  ),
  subject: oauthError(
    'invalid_grant',
    'subject_token is not a live ID token this organization issued to this client',
  ),
  audienceNotAllowed: oauthError(
    'invalid_target',
    'audience is not an application this organization lets this client reach',
  ),
  resourceNotAllowed: oauthError(
    'invalid_target',
    'resource is not one this client may reach at that audience',
  ),
  scopeNotAllowed: oauthError('invalid_scope', 'none of the scopes asked is allowed at that audience'),
  malformed: oauthError(
    'invalid_grant',
    'assertion is not an ID-JAG (typ oauth-id-jag+jwt, signed with a public key)',
  ),
  untrusted: oauthError(
    'invalid_grant',
    'the ID-JAG was not issued by a provider this organization trusts for it',
  ),
  expired: oauthError('invalid_grant', 'the ID-JAG has expired'),
  audience: oauthError('invalid_grant', 'the ID-JAG is not for this issuer'),
  invalid: oauthError('invalid_grant', 'the ID-JAG does not verify'),
  clientMismatch: oauthError('invalid_grant', 'the ID-JAG was issued for another client'),
  unlinked: oauthError(
    'invalid_grant',
    'the ID-JAG names no user of this organization linked through its issuer',
  ),
  roles: oauthError('invalid_scope', "the user's roles allow none of the scopes this ID-JAG grants"),
  replayed: oauthError('invalid_grant', 'the ID-JAG was already used'),
};

interface Confidential {
  clientId: string;
  secret: string;
}

for (const database of ['sqlite', 'postgres'] as const) {
  describe(`Enterprise-Managed Authorization (${database})`, () => {
    let tessera: TestServer;
    let acme: Org;
    let tools: Org;
    let beta: Org;
    let files: FilesServer;
    let orgC: JoseIssuer;
    let indie: JoseAuthorizationServer;
    let acmeIssuer: string;
    let toolsIssuer: string;
    let acmeOwner: string;
    let toolsOwner: string;
    let acmeMember: string;
    /** acme's agent (the MCP client's registration at the IdP) and another of acme's clients. */
    let agent: Confidential;
    let otherAgent: Confidential;
    let publicAtAcme: string;
    /** The same MCP client registered at tools, and at beta. */
    let agentAtTools: Confidential;
    let agentAtBeta: Confidential;
    let publicAtTools: string;
    let ada: { id: string; email: string };
    let carol: { id: string; email: string };
    let bob: string;
    let acmeConnection: string;
    let trustedApp: string;
    let adaIdToken: string;
    let carolIdToken: string;

    const acmeApi = (method: string, path: string, body?: unknown, token = acmeOwner) =>
      call(tessera, method, `/organizations/acme${path}`, token, body);
    const toolsApi = (method: string, path: string, body?: unknown) =>
      call(tessera, method, `/organizations/tools${path}`, toolsOwner, body);

    /** A code flow with scope=openid for a confidential client of acme: the ID token. */
    async function idTokenOf(client: Confidential, who: { email: string }): Promise<string> {
      const { url, verifier } = authorizeUrl(acmeIssuer, client.clientId, { scope: 'openid' });
      const callback = await signInThroughPages(new FormBrowser(), url, {
        email: who.email,
        password: PASSWORD,
      });
      const { status, body } = await tokenRequest(acmeIssuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: client.clientId,
        client_secret: client.secret,
      });
      assert.equal(status, 200, JSON.stringify(body));
      return body.id_token as string;
    }

    /** Token exchange at acme for an ID-JAG; `fields` override the defaults. */
    const exchange = (client: { clientId: string; secret?: string }, fields: Record<string, string>) =>
      tokenRequest(acmeIssuer, {
        grant_type: TOKEN_EXCHANGE,
        requested_token_type: ID_JAG,
        subject_token_type: ID_TOKEN,
        client_id: client.clientId,
        ...(client.secret === undefined ? {} : { client_secret: client.secret }),
        ...fields,
      });

    /** An ID-JAG for tools' files resource, for `subjectToken` (Ada's ID token unless said). */
    async function idJagForTools(scope = 'files:read', subjectToken = adaIdToken): Promise<string> {
      const { status, body } = await exchange(agent, {
        subject_token: subjectToken,
        audience: toolsIssuer,
        resource: files.resource,
        scope,
      });
      assert.equal(status, 200, JSON.stringify(body));
      return body.access_token as string;
    }

    /** The jwt-bearer grant at `issuer` with `assertion`. */
    const present = (issuer: string, client: { clientId: string; secret?: string }, assertion: string) =>
      tokenRequest(issuer, {
        grant_type: JWT_BEARER,
        assertion,
        client_id: client.clientId,
        ...(client.secret === undefined ? {} : { client_secret: client.secret }),
      });

    before(async () => {
      tessera = await startServer({
        database,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      });
      acme = await ownedOrg(tessera, 'acme');
      tools = await ownedOrg(tessera, 'tools');
      beta = await ownedOrg(tessera, 'beta');
      acmeIssuer = tessera.issuer('acme');
      toolsIssuer = tessera.issuer('tools');
      const site = await consoleOf(tessera);
      acmeOwner = await site.token('owner@acme.test');
      toolsOwner = await site.token('owner@tools.test');
      await addConsoleMember(tessera, acme, 'mel@console.test', 'member');
      acmeMember = await site.token('mel@console.test');
      files = await startFilesServer(toolsIssuer);
      orgC = await startJoseIssuer();

      // acme, the enterprise IdP: its people and the MCP client's registration.
      const confidential = {
        kind: 'confidential' as const,
        firstParty: true,
        grantTypes: ['authorization_code'],
      };
      ada = { id: (await makeUser(tessera.deps, acme, 'ada@acme.test')).user.id, email: 'ada@acme.test' };
      carol = {
        id: (await makeUser(tessera.deps, acme, 'carol@acme.test')).user.id,
        email: 'carol@acme.test',
      };
      const a = await makeClient(tessera.deps, acme, { ...confidential, name: 'Agent' });
      agent = { clientId: a.clientId, secret: a.secret as string };
      const o = await makeClient(tessera.deps, acme, { ...confidential, name: 'Other agent' });
      otherAgent = { clientId: o.clientId, secret: o.secret as string };
      publicAtAcme = (await makeClient(tessera.deps, acme, { name: 'Public agent', firstParty: true }))
        .clientId;

      // tools, the MCP server's authorization server: the resource, a role, Bob (Ada there) with it,
      // Dave (Carol there) without it, the MCP client's registration, the connection to acme.
      const resource = await toolsApi('POST', '/resources', {
        identifier: files.resource,
        name: 'Files',
        scopes: [
          { name: 'files:read', description: 'Read your files' },
          { name: 'files:write', description: 'Change your files' },
        ],
      });
      assert.equal(resource.status, 201, resource.text);
      const reader = await toolsApi('POST', '/roles', {
        name: 'reader',
        permissions: [{ resource: files.resource, scope: 'files:read' }],
      });
      assert.equal(reader.status, 201, reader.text);
      bob = (await makeUser(tessera.deps, tools, 'bob@tools.test')).user.id;
      const dave = (await makeUser(tessera.deps, tools, 'dave@tools.test')).user.id;
      assert.equal((await toolsApi('PUT', `/users/${bob}/roles`, { roles: [reader.body.id] })).status, 200);
      const t = await makeClient(tessera.deps, tools, {
        kind: 'confidential',
        name: 'Agent',
        redirectUris: [],
      });
      agentAtTools = { clientId: t.clientId, secret: t.secret as string };
      publicAtTools = (await makeClient(tessera.deps, tools, { name: 'Public agent' })).clientId;
      const connection = await toolsApi('POST', '/connections', {
        type: 'oidc',
        name: 'Acme',
        issuer: acmeIssuer,
        client_id: 'tools-at-acme',
        client_secret: 'a secret of the connection',
        accept_id_jag: true,
      });
      assert.equal(connection.status, 201, connection.text);
      assert.equal(connection.body.oidc.accept_id_jag, true);
      acmeConnection = connection.body.id;
      const c = await toolsApi('POST', '/connections', {
        type: 'oidc',
        name: 'Org C',
        issuer: orgC.issuer,
        client_id: 'tools-at-c',
        client_secret: 'a secret of the connection',
        accept_id_jag: true,
      });
      assert.equal(c.status, 201, c.text);
      // Linked as a sign-in through each connection links them (federated-sign-in.ts).
      for (const [subject, userId] of [
        [ada.id, bob],
        [carol.id, dave],
      ] as const)
        await insertFederatedIdentity(tessera.deps.store, {
          connectionId: acmeConnection,
          subject,
          userId,
          createdAt: Date.now(),
        });

      // beta trusts acme too (for the cross-org replay).
      const b = await makeClient(tessera.deps, beta, {
        kind: 'confidential',
        name: 'Agent',
        redirectUris: [],
      });
      agentAtBeta = { clientId: b.clientId, secret: b.secret as string };
      const betaOwner = await site.token('owner@beta.test');
      const betaConnection = await call(tessera, 'POST', '/organizations/beta/connections', betaOwner, {
        type: 'oidc',
        name: 'Acme',
        issuer: acmeIssuer,
        client_id: 'beta-at-acme',
        client_secret: 'a secret of the connection',
        accept_id_jag: true,
      });
      assert.equal(betaConnection.status, 201, betaConnection.text);

      adaIdToken = await idTokenOf(agent, ada);
      carolIdToken = await idTokenOf(agent, carol);
    });

    after(async () => {
      await indie?.close();
      await orgC?.close();
      await files?.close();
      await tessera?.close();
    });

    test('discovery names both halves on org issuers, neither on the console', async () => {
      const doc = (await (
        await fetch(new URL('.well-known/openid-configuration', acmeIssuer))
      ).json()) as Record<string, unknown>;
      assert.deepEqual(doc.identity_chaining_requested_token_types_supported, [ID_JAG]);
      assert.deepEqual(doc.authorization_grant_profiles_supported, [
        'urn:ietf:params:oauth:grant-profile:id-jag',
      ]);
      const grants = doc.grant_types_supported as string[];
      assert.ok(grants.includes(JWT_BEARER) && grants.includes(TOKEN_EXCHANGE));
      const consoleDoc = (await (
        await fetch(`${tessera.base}/.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      assert.equal(consoleDoc.identity_chaining_requested_token_types_supported, undefined);
      assert.equal(consoleDoc.authorization_grant_profiles_supported, undefined);
      assert.ok(!(consoleDoc.grant_types_supported as string[]).includes(JWT_BEARER));
    });

    test('owners list the trusted apps: create, read, update, audited; members and bad input refused', async () => {
      const denied = await acmeApi(
        'POST',
        '/trusted-apps',
        { name: 'Tools', audience: toolsIssuer, target_client_id: 'x', client_ids: [agent.clientId] },
        acmeMember,
      );
      assert.equal(denied.status, 403);
      const bad = await acmeApi('POST', '/trusted-apps', {
        name: 'Tools',
        audience: 'ftp://tools.example/',
        target_client_id: agentAtTools.clientId,
        client_ids: [agent.clientId],
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, {
        error: 'invalid_request',
        error_detail:
          'audience must be the issuer URL of the target authorization server: https, no query or fragment',
      });
      const publicClient = await acmeApi('POST', '/trusted-apps', {
        name: 'Tools',
        audience: toolsIssuer,
        target_client_id: agentAtTools.clientId,
        client_ids: [publicAtAcme],
      });
      assert.equal(publicClient.status, 400);
      assert.deepEqual(publicClient.body, {
        error: 'invalid_request',
        error_detail: `client_ids: ${publicAtAcme} is not a confidential client of this organization`,
      });

      const created = await acmeApi('POST', '/trusted-apps', {
        name: 'Tools',
        audience: toolsIssuer,
        target_client_id: 'not yet',
        client_ids: [agent.clientId],
        resources: [files.resource],
        scopes: ['files:read'],
      });
      assert.equal(created.status, 201, created.text);
      trustedApp = created.body.id;
      assert.match(trustedApp, /^tap_/);
      const updated = await acmeApi('PATCH', `/trusted-apps/${trustedApp}`, {
        target_client_id: agentAtTools.clientId,
        scopes: ['files:read', 'files:write'],
      });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(
        { ...updated.body, created_at: undefined, updated_at: undefined },
        {
          id: trustedApp,
          name: 'Tools',
          audience: toolsIssuer,
          target_client_id: agentAtTools.clientId,
          client_ids: [agent.clientId],
          resources: [files.resource],
          scopes: ['files:read', 'files:write'],
          created_at: undefined,
          updated_at: undefined,
        },
      );
      const taken = await acmeApi('POST', '/trusted-apps', {
        name: 'Tools again',
        audience: toolsIssuer,
        target_client_id: 'y',
        client_ids: [agent.clientId],
      });
      assert.equal(taken.status, 409);
      const list = await acmeApi('GET', '/trusted-apps');
      assert.deepEqual(
        list.body.data.map((a: { id: string }) => a.id),
        [trustedApp],
      );
      assert.equal((await acmeApi('GET', `/trusted-apps/${trustedApp}`)).status, 200);
      assert.equal((await acmeApi('GET', '/trusted-apps/tap_nope')).status, 404);
      // Another org's owner cannot read it.
      assert.equal(
        (await call(tessera, 'GET', `/organizations/acme/trusted-apps/${trustedApp}`, toolsOwner)).status,
        404,
      );
      const keys = await tessera.db
        .selectFrom('audit_events')
        .select('key')
        .where('org_id', '=', acme.id)
        .where('key', 'like', 'trusted_app.%')
        .execute();
      assert.deepEqual(
        keys.map((k) => k.key),
        ['trusted_app.created', 'trusted_app.updated'],
      );
    });

    test('an MCP client gets an ID-JAG from acme, a token for it at tools, and calls the MCP server', async () => {
      const { status, body } = await exchange(agent, {
        subject_token: adaIdToken,
        audience: toolsIssuer,
        resource: files.resource,
        scope: 'files:read',
      });
      assert.equal(status, 200, JSON.stringify(body));
      const idJag = body.access_token as string;
      assert.deepEqual(body, {
        access_token: idJag,
        issued_token_type: ID_JAG,
        token_type: 'N_A',
        expires_in: 300,
        scope: 'files:read',
      });
      const header = decodeProtectedHeader(idJag);
      assert.equal(header.typ, 'oauth-id-jag+jwt');
      assert.equal(header.alg, 'RS256');
      const claims = decodeJwt(idJag);
      assert.equal(claims.iss, acmeIssuer);
      assert.equal(claims.sub, ada.id);
      assert.equal(claims.aud, toolsIssuer);
      assert.equal(claims.client_id, agentAtTools.clientId);
      assert.equal(claims.resource, files.resource);
      assert.equal(claims.scope, 'files:read');
      assert.equal((claims.exp as number) - (claims.iat as number), 300);
      assert.equal(typeof claims.jti, 'string');
      assert.deepEqual(claims.amr, ['pwd']);
      const issuedEntry = await tessera.db
        .selectFrom('audit_events')
        .select(['key', 'data'])
        .where('org_id', '=', acme.id)
        .where('key', '=', 'id_jag.created')
        .executeTakeFirstOrThrow();
      assert.equal(JSON.parse(issuedEntry.data).jti, claims.jti);

      const token = await present(toolsIssuer, agentAtTools, idJag);
      assert.equal(token.status, 200, JSON.stringify(token.body));
      const accessToken = token.body.access_token as string;
      assert.deepEqual(token.body, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: token.body.expires_in,
        scope: 'files:read',
      });
      // Its jti is kept, with its issuer, in the replay table every node shares, until the ID-JAG expires.
      const kept = await tessera.db
        .selectFrom('dpop_proof_jtis')
        .select('expires_at')
        .where('jti_hash', '=', sha256(`id-jag\n${acmeIssuer}\n${claims.jti}`))
        .executeTakeFirstOrThrow();
      assert.equal(Number(kept.expires_at), (claims.exp as number) * 1000);
      const access = decodeJwt(accessToken);
      assert.equal(access.iss, toolsIssuer);
      assert.equal(access.sub, bob);
      assert.deepEqual(access.aud, [agentAtTools.clientId, files.resource]);
      assert.equal(access.scope, 'files:read');

      const mcp = new McpClient({ name: 'agent', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(files.resource), {
          requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
        }),
      );
      try {
        const read = await mcp.callTool({ name: 'read_file', arguments: {} });
        assert.deepEqual(read.content, [{ type: 'text', text: 'hello from files' }]);
        // Bob's roles allow no write: the ID-JAG asked for read only, and the token has no more.
        await assert.rejects(mcp.callTool({ name: 'write_file', arguments: {} }));
      } finally {
        await mcp.close();
      }
      assert.deepEqual(files.calls.at(-1), { tool: 'read_file', sub: bob });

      // The ID-JAG asked for both scopes: the token has what Bob's roles allow.
      const both = await present(toolsIssuer, agentAtTools, await idJagForTools('files:read files:write'));
      assert.equal(both.status, 200, JSON.stringify(both.body));
      assert.equal(both.body.scope, 'files:read');
      assert.equal(both.body.refresh_token, undefined);
    });

    test('an authorization server written with jose takes acme’s ID-JAG, checked against acme’s JWKS', async () => {
      indie = await startJoseAuthorizationServer({
        idpIssuer: acmeIssuer,
        idpJwksUri: new URL('.well-known/jwks.json', acmeIssuer).href,
        clientId: 'agent-at-indie',
        clientSecret: 'indie secret',
      });
      const app = await acmeApi('POST', '/trusted-apps', {
        name: 'Indie',
        audience: indie.issuer,
        target_client_id: 'agent-at-indie',
        client_ids: [agent.clientId],
        resources: ['https://api.indie.test/'],
        scopes: ['notes'],
      });
      assert.equal(app.status, 201, app.text);
      // No scope asked: every scope the trusted app allows.
      const { status, body } = await exchange(agent, {
        subject_token: adaIdToken,
        audience: indie.issuer,
        resource: 'https://api.indie.test/',
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.scope, 'notes');
      const idJag = body.access_token as string;
      const answer = await present(
        indie.issuer,
        { clientId: 'agent-at-indie', secret: 'indie secret' },
        idJag,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(indie.issued, [{ sub: ada.id, scope: 'notes', resource: 'https://api.indie.test/' }]);

      // The same ID-JAG at tools: not for it.
      assert.deepEqual((await present(toolsIssuer, agentAtTools, idJag)).body, REFUSED.audience);
    });

    test('an org that signs ID tokens with ES256 takes its ES256 ID token as subject and signs the ID-JAG so', async () => {
      const switched = await acmeApi('PATCH', '/settings', { id_token_signing_alg: 'ES256' });
      assert.equal(switched.status, 200, switched.text);
      try {
        const esIdToken = await idTokenOf(agent, ada);
        assert.equal(decodeProtectedHeader(esIdToken).alg, 'ES256');
        const { status, body } = await exchange(agent, {
          subject_token: esIdToken,
          audience: toolsIssuer,
          resource: files.resource,
          scope: 'files:read',
        });
        assert.equal(status, 200, JSON.stringify(body));
        const idJag = body.access_token as string;
        assert.deepEqual(
          { alg: decodeProtectedHeader(idJag).alg, typ: decodeProtectedHeader(idJag).typ },
          { alg: 'ES256', typ: 'oauth-id-jag+jwt' },
        );
        const keys = createLocalJWKSet(
          await (await fetch(new URL('.well-known/jwks.json', acmeIssuer))).json(),
        );
        const { payload } = await jwtVerify(idJag, keys, {
          issuer: acmeIssuer,
          audience: toolsIssuer,
          algorithms: ['ES256'],
          typ: 'oauth-id-jag+jwt',
        });
        assert.equal(payload.sub, ada.id);
      } finally {
        const back = await acmeApi('PATCH', '/settings', { id_token_signing_alg: 'RS256' });
        assert.equal(back.status, 200, back.text);
      }
    });

    test('each refusal answers the RFC error with its exact body', async () => {
      // Wrong audience: an ID-JAG for tools, presented at beta (which trusts acme too).
      const forTools = await idJagForTools();
      assert.deepEqual(await present(tessera.issuer('beta'), agentAtBeta, forTools), {
        status: 400,
        body: REFUSED.audience,
      });
      // Replayed jti: the first presentation takes it, the second is refused.
      assert.equal((await present(toolsIssuer, agentAtTools, forTools)).status, 200);
      assert.deepEqual(await present(toolsIssuer, agentAtTools, forTools), {
        status: 400,
        body: REFUSED.replayed,
      });
      // Untrusted issuer: the connection no longer accepts acme's ID-JAGs.
      const idJag = await idJagForTools();
      const off = await toolsApi('PATCH', `/connections/${acmeConnection}`, { accept_id_jag: false });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.body.oidc.accept_id_jag, false);
      assert.deepEqual(await present(toolsIssuer, agentAtTools, idJag), {
        status: 400,
        body: REFUSED.untrusted,
      });
      assert.equal(
        (await toolsApi('PATCH', `/connections/${acmeConnection}`, { accept_id_jag: true })).status,
        200,
      );
      // Refused ID-JAGs are not spent: the same one is taken once trusted again.
      assert.equal((await present(toolsIssuer, agentAtTools, idJag)).status, 200);
      // A user without the role: Carol is Dave at tools, who holds none.
      assert.deepEqual(
        await present(toolsIssuer, agentAtTools, await idJagForTools('files:read', carolIdToken)),
        {
          status: 400,
          body: REFUSED.roles,
        },
      );
      // Expired (org C's provider signs it).
      const now = Math.floor(Date.now() / 1000);
      const expired = await orgC.sign({
        iss: orgC.issuer,
        sub: 'someone',
        aud: toolsIssuer,
        client_id: agentAtTools.clientId,
        jti: 'expired-1',
        iat: now - 600,
        exp: now - 300,
        resource: files.resource,
      });
      assert.deepEqual(await present(toolsIssuer, agentAtTools, expired), {
        status: 400,
        body: REFUSED.expired,
      });
      // A public client, at either side.
      assert.deepEqual(await present(toolsIssuer, { clientId: publicAtTools }, await idJagForTools()), {
        status: 400,
        body: REFUSED.notConfidential,
      });
      assert.deepEqual(
        await exchange({ clientId: publicAtAcme }, { subject_token: adaIdToken, audience: toolsIssuer }),
        { status: 400, body: REFUSED.notConfidential },
      );
      // A subject token issued to another client: the other agent presents the agent's ID token.
      assert.deepEqual(await exchange(otherAgent, { subject_token: adaIdToken, audience: toolsIssuer }), {
        status: 400,
        body: REFUSED.subject,
      });
      // Another client than the ID-JAG's at tools.
      const stranger = await makeClient(tessera.deps, tools, {
        kind: 'confidential',
        name: 'X',
        redirectUris: [],
      });
      assert.deepEqual(
        await present(
          toolsIssuer,
          { clientId: stranger.clientId, secret: stranger.secret as string },
          await idJagForTools(),
        ),
        { status: 400, body: REFUSED.clientMismatch },
      );
      // subject_token_type other than an ID token.
      assert.deepEqual(
        await exchange(agent, {
          subject_token: adaIdToken,
          subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          audience: toolsIssuer,
        }),
        {
          status: 400,
          body: oauthError('invalid_request', `subject_token_type must be ${ID_TOKEN}`),
        },
      );
    });

    test('attack: an org member or client cannot mint ID-JAGs beyond what the owners allowed', async () => {
      assert.deepEqual(
        await exchange(agent, { subject_token: adaIdToken, audience: 'http://evil.localhost/' }),
        { status: 400, body: REFUSED.audienceNotAllowed },
      );
      // The other agent is not on the trusted app's list, with its own ID token.
      const otherIdToken = await idTokenOf(otherAgent, ada);
      assert.deepEqual(await exchange(otherAgent, { subject_token: otherIdToken, audience: toolsIssuer }), {
        status: 400,
        body: REFUSED.audienceNotAllowed,
      });
      assert.deepEqual(
        await exchange(agent, {
          subject_token: adaIdToken,
          audience: toolsIssuer,
          resource: `${files.resource}/other`,
        }),
        { status: 400, body: REFUSED.resourceNotAllowed },
      );
      assert.deepEqual(
        await exchange(agent, { subject_token: adaIdToken, audience: toolsIssuer, scope: 'files:admin' }),
        { status: 400, body: REFUSED.scopeNotAllowed },
      );
      // An asked scope beyond the list is dropped, not granted.
      const { body } = await exchange(agent, {
        subject_token: adaIdToken,
        audience: toolsIssuer,
        resource: files.resource,
        scope: 'files:read files:admin',
      });
      assert.equal(body.scope, 'files:read');
      // An owner impersonating Ada got an ID token for the agent (acr impersonation, no amr): it does
      // not carry the impersonation to another application.
      const iat = Math.floor(Date.now() / 1000);
      const impersonated = await signIdToken(await tessera.deps.keyRing.signer(acme.id), {
        iss: acmeIssuer,
        sub: ada.id,
        aud: agent.clientId,
        iat,
        exp: iat + 300,
        auth_time: iat,
        acr: 'urn:tessera:acr:impersonation',
        amr: [],
      });
      assert.deepEqual(
        await exchange(agent, {
          subject_token: impersonated,
          audience: toolsIssuer,
          resource: files.resource,
        }),
        {
          status: 400,
          body: oauthError('invalid_grant', 'an impersonated sign-in does not reach other applications'),
        },
      );
      // An access token is no subject token here, nor is an ID token of another org.
      const forged = await new SignJWT({ sub: ada.id, aud: agent.clientId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(acmeIssuer)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(
          new TextEncoder().encode(
            JSON.stringify(await (await fetch(new URL('.well-known/jwks.json', acmeIssuer))).json()),
          ),
        );
      assert.deepEqual(await exchange(agent, { subject_token: forged, audience: toolsIssuer }), {
        status: 400,
        body: REFUSED.subject,
      });
    });

    test('attack: forged, confused and impersonating ID-JAGs are refused at tools', async () => {
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: acmeIssuer,
        sub: ada.id,
        aud: toolsIssuer,
        client_id: agentAtTools.clientId,
        jti: `forged-${database}`,
        iat: now,
        exp: now + 300,
        resource: files.resource,
        scope: 'files:read',
      };
      const acmeJwks = JSON.stringify(
        await (await fetch(new URL('.well-known/jwks.json', acmeIssuer))).json(),
      );
      // HS256 keyed with acme's published key set, and with one key's modulus: alg confusion.
      const key = JSON.parse(acmeJwks).keys[0];
      for (const secret of [acmeJwks, key.n as string]) {
        const hs = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256', typ: 'oauth-id-jag+jwt', kid: key.kid })
          .sign(new TextEncoder().encode(secret));
        assert.deepEqual(await present(toolsIssuer, agentAtTools, hs), {
          status: 400,
          body: REFUSED.malformed,
        });
      }
      // alg none.
      const none = new UnsecuredJWT(claims)
        .encode()
        .replace(/^[^.]+/, () =>
          Buffer.from(JSON.stringify({ alg: 'none', typ: 'oauth-id-jag+jwt' })).toString('base64url'),
        );
      assert.deepEqual(await present(toolsIssuer, agentAtTools, none), {
        status: 400,
        body: REFUSED.malformed,
      });
      // An ID token is no ID-JAG (typ JWT), even from the trusted provider.
      assert.deepEqual(await present(toolsIssuer, agentAtTools, adaIdToken), {
        status: 400,
        body: REFUSED.malformed,
      });
      // Org C's key, claiming to be acme.
      const claimed = await orgC.sign(claims);
      assert.deepEqual(await present(toolsIssuer, agentAtTools, claimed), {
        status: 400,
        body: REFUSED.invalid,
      });
      // Org C, trusted by tools, names a subject linked through acme's connection: nobody there.
      const impersonating = await orgC.sign({ ...claims, iss: orgC.issuer, jti: `c-${database}` });
      assert.deepEqual(await present(toolsIssuer, agentAtTools, impersonating), {
        status: 400,
        body: REFUSED.unlinked,
      });
      // Two audiences, one of them this issuer.
      const twoAudiences = await orgC.sign({
        ...claims,
        iss: orgC.issuer,
        aud: [toolsIssuer, 'https://x.test/'],
      });
      assert.deepEqual(await present(toolsIssuer, agentAtTools, twoAudiences), {
        status: 400,
        body: REFUSED.audience,
      });
      // A lifetime beyond an hour (its jti would have to be kept for ever).
      const eternal = await orgC.sign({ ...claims, iss: orgC.issuer, exp: now + 86_400 * 365 });
      assert.deepEqual(await present(toolsIssuer, agentAtTools, eternal), {
        status: 400,
        body: REFUSED.invalid,
      });
      // tools' own ID-JAG, even through a connection to itself and a linked subject (draft §8.3: an
      // authorization server never takes an ID-JAG it issued itself).
      const self = await toolsApi('POST', '/connections', {
        type: 'oidc',
        name: 'Itself',
        issuer: toolsIssuer,
        client_id: 'tools-at-tools',
        client_secret: 'a secret of the connection',
        accept_id_jag: true,
      });
      assert.equal(self.status, 201, self.text);
      await insertFederatedIdentity(tessera.deps.store, {
        connectionId: self.body.id,
        subject: bob,
        userId: bob,
        createdAt: Date.now(),
      });
      const own = await signIdToken(
        await tessera.deps.keyRing.signer(tools.id),
        { ...claims, iss: toolsIssuer, sub: bob, jti: `own-${database}` },
        'oauth-id-jag+jwt',
      );
      assert.deepEqual(await present(toolsIssuer, agentAtTools, own), {
        status: 400,
        body: REFUSED.untrusted,
      });
      assert.equal((await toolsApi('DELETE', `/connections/${self.body.id}`)).status, 204);
      // Issued in the future (a clock far ahead).
      const ahead = await orgC.sign({ ...claims, iss: orgC.issuer, iat: now + 600, exp: now + 900 });
      assert.deepEqual(await present(toolsIssuer, agentAtTools, ahead), {
        status: 400,
        body: REFUSED.invalid,
      });
    });

    test('one ID-JAG presented five times at once is taken once; a deleted trusted app issues no more', async () => {
      const idJag = await idJagForTools();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => present(toolsIssuer, agentAtTools, idJag)),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400]);
      for (const a of answers) if (a.status === 400) assert.deepEqual(a.body, REFUSED.replayed);

      assert.equal((await acmeApi('DELETE', `/trusted-apps/${trustedApp}`)).status, 204);
      assert.deepEqual(
        await exchange(agent, { subject_token: adaIdToken, audience: toolsIssuer, resource: files.resource }),
        { status: 400, body: REFUSED.audienceNotAllowed },
      );
    });
  });
}
