import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connectionSecret } from '../../src/domain/federation/connections.js';
import type { Org } from '../../src/domain/types.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { type CliResult, cliEnv, tessera } from '../support/cli.js';
import { startServer, type TestServer } from '../support/server.js';
import { SamlIdp } from './support/saml-idp.js';

const SECRET = 'upstream client secret 0123456789';

/**
 * `tessera connection …` against a running server's storage, as an operator would use it: what it
 * prints is the management API's view (URLs included, never the secret), what it stores is what the
 * API then reads, and its changes are audited like the API's, as the system. The OIDC client secret
 * comes on stdin, never as a flag. SQLite only: the storage is the management API's, whose own
 * suite runs on both databases.
 */
describe('tessera connection', () => {
  let server: TestServer;
  let acme: Org;
  let owner: string;
  let idp: SamlIdp;
  let files: string;
  let env: Record<string, string>;
  let oidcId: string;
  let samlId: string;
  let roleId: string;

  before(async () => {
    server = await startServer({ webhooks: false });
    acme = await ownedOrg(server, 'acme');
    owner = await (await consoleOf(server)).token('owner@acme.test');
    idp = await SamlIdp.start();
    files = mkdtempSync(join(tmpdir(), 'tessera-connection-cli-'));
    writeFileSync(join(files, 'idp.xml'), idp.metadata());
    writeFileSync(join(files, 'idp.pem'), idp.cert);
    env = cliEnv(server);
    const role = await call(server, 'POST', '/organizations/acme/roles', owner, { name: 'engineer' });
    assert.equal(role.status, 201, role.text);
    roleId = role.body.id;
  });
  after(async () => {
    await idp?.close();
    await server?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  const ok = async (args: string[], stdin?: string) => {
    const res = await tessera(['connection', ...args], env, stdin);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout.trim().split('\n').length, 1, 'exactly one line of JSON');
    assert.ok(!res.stdout.includes(SECRET) && !res.stderr.includes(SECRET), 'the secret is never printed');
    return res.json as Record<string, unknown>;
  };
  const failsWith = async (args: string[], message: RegExp, code: number, stdin?: string) => {
    const res: CliResult = await tessera(['connection', ...args], env, stdin);
    assert.equal(res.code, code, `exit code for ${args.join(' ')}: ${res.stderr}`);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
  };
  /** The connection as the management API reads it. */
  const api = async (id: string) => {
    const res = await call(server, 'GET', `/organizations/acme/connections/${id}`, owner);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const audit = () =>
    server.db
      .selectFrom('audit_events')
      .select(['verb', 'actor_kind', 'data'])
      .where('org_id', '=', acme.id)
      .where('entity', '=', 'connection')
      .orderBy('at')
      .execute();

  test('create oidc: the secret read from stdin, stored sealed; the callback URL printed', async () => {
    const out = await ok(
      [
        'create',
        '--org',
        'acme',
        '--type',
        'oidc',
        '--name',
        'Okta',
        '--issuer',
        'https://acme.okta.example',
        '--client-id',
        'tessera-acme',
        '--domain',
        'Acme.test',
        '--domain',
        'acme.example',
        '--jit',
        '--jit-any-domain',
        '--hosted-domain',
        'Acme.test',
        '--default-role',
        roleId,
        '--allowed-endpoint-host',
        'Login.Acme.example',
      ],
      `${SECRET}\n`,
    );
    oidcId = out.id as string;
    assert.match(oidcId, /^con_/);
    const issuer = server.issuer('acme');
    assert.deepEqual(Object.keys(out), [
      'id',
      'type',
      'name',
      'domains',
      'jit',
      'jitAnyDomain',
      'defaultRoles',
      'oidc',
      'callbackUrl',
      'createdAt',
      'updatedAt',
    ]);
    assert.equal(out.callbackUrl, `${issuer}sso/${oidcId}/callback`);
    const stored = await api(oidcId);
    assert.deepEqual(
      {
        type: stored.type,
        name: stored.name,
        domains: stored.domains,
        jit: stored.jit,
        jit_any_domain: stored.jit_any_domain,
        default_roles: stored.default_roles,
        oidc: stored.oidc,
        callback_url: stored.callback_url,
      },
      {
        type: 'oidc',
        name: 'Okta',
        domains: ['acme.test', 'acme.example'],
        jit: true,
        jit_any_domain: true,
        default_roles: [roleId],
        oidc: {
          issuer: 'https://acme.okta.example',
          client_id: 'tessera-acme',
          scopes: ['openid', 'email', 'profile'],
          hosted_domain: 'acme.test',
          allowed_endpoint_hosts: ['login.acme.example'],
          accept_id_jag: false,
        },
        callback_url: out.callbackUrl,
      },
    );
    // The newline that ended the piped line is not part of the secret; the row holds it sealed.
    assert.equal(await connectionSecret(server.deps, acme, oidcId), SECRET);
    const row = await server.db
      .selectFrom('connections')
      .select('sealed_secret')
      .where('id', '=', oidcId)
      .executeTakeFirstOrThrow();
    assert.ok(row.sealed_secret && !row.sealed_secret.includes(SECRET));
  });

  test('create saml from the IdP metadata file; show and list give the SP URLs', async () => {
    const out = await ok([
      'create',
      '--org',
      'acme',
      '--type',
      'saml',
      '--name',
      'Corp IdP',
      '--metadata-file',
      join(files, 'idp.xml'),
      '--domain',
      'corp.test',
    ]);
    samlId = out.id as string;
    const issuer = server.issuer('acme');
    assert.equal(out.acsUrl, `${issuer}saml/${samlId}/acs`);
    assert.equal(out.spMetadataUrl, `${issuer}saml/${samlId}/metadata`);
    assert.equal(out.spEntityId, out.spMetadataUrl);
    assert.equal(out.jit, false);
    const stored = await api(samlId);
    assert.deepEqual(
      [stored.acs_url, stored.sp_entity_id, stored.sp_metadata_url],
      [out.acsUrl, out.spEntityId, out.spMetadataUrl],
    );
    assert.equal(stored.saml.idp_entity_id, idp.entityId);
    assert.equal(stored.saml.sso_url, `${idp.origin}/sso`);
    assert.deepEqual(out.saml, {
      idpEntityId: idp.entityId,
      ssoUrl: `${idp.origin}/sso`,
      certificates: stored.saml.certificates,
    });

    const [shown, listed] = await Promise.all([
      ok(['show', '--org', 'acme', '--id', samlId]),
      ok(['list', '--org', 'acme']),
    ]);
    assert.deepEqual(shown, out);
    assert.deepEqual(
      (listed.data as Record<string, unknown>[]).map((c) => [c.id, c.callbackUrl ?? c.acsUrl]),
      [
        [oidcId, `${issuer}sso/${oidcId}/callback`],
        [samlId, out.acsUrl],
      ],
    );
  });

  test('update: settings, a new secret from stdin, the IdP by hand; delete; each audited as the system', async () => {
    const [oidc, saml] = await Promise.all([
      ok(
        [
          'update',
          '--org',
          'acme',
          '--id',
          oidcId,
          '--name',
          'Okta (EU)',
          '--no-jit',
          '--no-jit-any-domain',
          '--hosted-domain',
          '',
          '--domain',
          '',
          '--scope',
          'email',
          '--new-client-secret',
        ],
        'rotated secret\n',
      ),
      ok([
        'update',
        '--org',
        'acme',
        '--id',
        samlId,
        '--entity-id',
        'urn:corp:idp',
        '--sso-url',
        `${idp.origin}/login`,
        '--certificate-file',
        join(files, 'idp.pem'),
      ]),
    ]);
    assert.deepEqual([oidc.name, oidc.jit, oidc.domains], ['Okta (EU)', false, []]);
    const stored = await api(oidcId);
    assert.deepEqual([stored.name, stored.jit, stored.domains], ['Okta (EU)', false, []]);
    assert.deepEqual([stored.jit_any_domain, stored.oidc.hosted_domain], [false, null]);
    assert.deepEqual(stored.oidc.scopes, ['openid', 'email']);
    assert.equal(await connectionSecret(server.deps, acme, oidcId), 'rotated secret');
    const idpNow = (await api(samlId)).saml;
    assert.deepEqual([idpNow.idp_entity_id, idpNow.sso_url], ['urn:corp:idp', `${idp.origin}/login`]);
    assert.deepEqual(saml.saml, {
      idpEntityId: 'urn:corp:idp',
      ssoUrl: `${idp.origin}/login`,
      certificates: idpNow.certificates,
    });

    assert.deepEqual(await ok(['delete', '--org', 'acme', '--id', oidcId]), { deleted: oidcId });
    assert.equal((await call(server, 'GET', `/organizations/acme/connections/${oidcId}`, owner)).status, 404);

    const entries = await audit();
    assert.deepEqual(
      entries.map((e) => [e.verb, e.actor_kind]),
      [
        ['created', 'system'],
        ['created', 'system'],
        ['updated', 'system'],
        ['updated', 'system'],
        ['deleted', 'system'],
      ],
    );
    assert.ok(!entries.some((e) => e.data.includes(SECRET) || e.data.includes('rotated secret')));
  });

  test('errors: no secret, a flag of the other type, a bad type, an unreadable file, an unknown id', async () => {
    const create = ['create', '--org', 'acme', '--name', 'X'];
    const oidc = [...create, '--type', 'oidc', '--issuer', 'https://x.example', '--client-id', 'c'];
    await Promise.all([
      failsWith(oidc, /^error: the client secret is empty: give it on stdin or at the prompt\n$/, 1),
      failsWith(
        [...oidc, '--metadata-file', 'f'],
        /^error: --metadata-file is not for oidc connections\n/,
        2,
      ),
      failsWith([...create, '--type', 'ldap'], /^error: --type must be oidc or saml\n/, 2),
      failsWith(
        [...create, '--type', 'saml', '--entity-id', 'urn:x'],
        /^error: a saml connection needs --metadata-file, or --entity-id, --sso-url and --certificate-file\n/,
        2,
      ),
      failsWith(
        [...create, '--type', 'saml', '--metadata-file', join(files, 'none.xml')],
        /^error: cannot read --metadata-file .*none\.xml: ENOENT\n$/,
        1,
      ),
      failsWith([...oidc, '--jit', '--no-jit'], /^error: give one of --jit or --no-jit\n/, 2),
      failsWith(
        [...create, '--type', 'saml', '--metadata-file', 'f', '--hosted-domain', 'corp.test'],
        /^error: --hosted-domain is not for saml connections\n/,
        2,
      ),
      failsWith(['show', '--org', 'acme', '--id', oidcId], /^error: no such connection\n$/, 1),
    ]);
  });
});
