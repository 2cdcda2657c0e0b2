import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LATEST_MIGRATION } from '../src/storage/migrate.js';
import { tessera, tesseraProcess } from './support/cli.js';

/**
 * Every admin command of DESIGN §8, from the binary's sources: one JSON object on success, a clear error
 * otherwise. Most commands run in the test's CLI session (the binary's code, one process for many
 * commands); migrate, serve, worker and those given stdin run as processes of their own, and the last
 * test checks that a process of its own answers each kind of command exactly as the session does.
 */
describe('tessera CLI', () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
    env = { TESSERA_DATA_DIR: dir, TESSERA_URL: 'http://localhost:4000' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const ok = async (args: string[]) => {
    const res = await tessera(args, env);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout.trim().split('\n').length, 1, 'exactly one line of JSON');
    return res.json as Record<string, unknown>;
  };
  const failsWith = async (args: string[], message: RegExp, code = 1) => {
    const res = await tessera(args, env);
    assert.equal(res.code, code, `exit code for ${args.join(' ')}`);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    return res;
  };

  test('migrate: every migration on a fresh data dir, then none', async () => {
    const first = await ok(['migrate']);
    assert.deepEqual(Object.keys(first), ['applied']);
    assert.equal((first.applied as string[])[0], '001-foundation');
    assert.equal((first.applied as string[]).at(-1), LATEST_MIGRATION);
    assert.deepEqual(await ok(['migrate']), { applied: [] });
  });

  let orgId = '';
  test('org create', async () => {
    const out = await ok([
      'org',
      'create',
      '--slug',
      'acme',
      '--name',
      'Acme Inc',
      '--owner-email',
      'Ada@Acme.test',
      '--owner-password',
      'owner password',
    ]);
    assert.deepEqual(Object.keys(out), ['id', 'slug', 'name', 'issuer', 'owner']);
    assert.match(out.id as string, /^org_/);
    orgId = out.id as string;
    assert.equal(out.slug, 'acme');
    assert.equal(out.name, 'Acme Inc');
    assert.equal(out.issuer, 'http://acme.localhost:4000/');
    const owner = out.owner as Record<string, unknown>;
    assert.deepEqual(Object.keys(owner), ['id', 'email']);
    assert.equal(owner.email, 'Ada@Acme.test');
  });

  test('org create: errors for a duplicate slug, a bad slug, a bad email, a new owner without password', async () => {
    await failsWith(
      ['org', 'create', '--slug', 'acme', '--owner-email', 'ada@acme.test'],
      /^error: an organization with slug "acme" exists\n$/,
    );
    await failsWith(
      ['org', 'create', '--slug', 'Bad Slug', '--owner-email', 'a@b.test', '--owner-password', 'long enough'],
      /^error: slug must be/,
    );
    await failsWith(
      ['org', 'create', '--slug', 'beta', '--owner-email', 'not-an-email', '--owner-password', 'long enough'],
      /^error: email is not a valid address\n$/,
    );
    await failsWith(
      ['org', 'create', '--slug', 'beta', '--owner-email', 'new@b.test'],
      /^error: new@b\.test is not a console user yet: a password is required\n$/,
    );
    await failsWith(['org', 'create', '--owner-email', 'a@b.test'], /^error: --slug is required\n/, 2);
  });

  test('org update', async () => {
    assert.deepEqual(await ok(['org', 'update', '--org', 'acme', '--require-mfa', 'true']), {
      id: orgId,
      slug: 'acme',
      requireMfa: true,
      dynamicRegistration: false,
      metadataDocuments: false,
      signUp: 'open',
      signUpDomains: [],
      idTokenSigningAlg: 'RS256',
    });
    const off = await ok(['org', 'update', '--org', orgId, '--require-mfa', 'false']);
    assert.equal(off.requireMfa, false);
    // Registration on the org's issuer (DESIGN §15): each switch alone, the others kept.
    assert.deepEqual(await ok(['org', 'update', '--org', 'acme', '--dynamic-registration', 'true']), {
      id: orgId,
      slug: 'acme',
      requireMfa: false,
      dynamicRegistration: true,
      metadataDocuments: false,
      signUp: 'open',
      signUpDomains: [],
      idTokenSigningAlg: 'RS256',
    });
    const closed = await ok([
      'org',
      'update',
      '--org',
      'acme',
      '--dynamic-registration',
      'false',
      '--metadata-documents',
      'false',
    ]);
    assert.deepEqual([closed.dynamicRegistration, closed.metadataDocuments], [false, false]);
    await failsWith(
      ['org', 'update', '--org', 'acme'],
      /^error: give at least one of --require-mfa, --dynamic-registration, --metadata-documents, --sign-up, --sign-up-domain, --id-token-signing-alg, or a branding flag\n/,
      2,
    );
    // The ID-token signing algorithm (DESIGN §20): chosen, refused when not one of the three, kept.
    const es256 = await ok(['org', 'update', '--org', 'acme', '--id-token-signing-alg', 'ES256']);
    assert.equal(es256.idTokenSigningAlg, 'ES256');
    await failsWith(
      ['org', 'update', '--org', 'acme', '--id-token-signing-alg', 'none'],
      /^error: --id-token-signing-alg must be one of RS256, ES256, PS256\n/,
      2,
    );
    await failsWith(
      ['org', 'update', '--org', 'console', '--id-token-signing-alg', 'ES256'],
      /^error: the console issuer signs with RS256; its signing algorithm is not a setting\n$/,
    );
    const back = await ok(['org', 'update', '--org', 'acme', '--id-token-signing-alg', 'RS256']);
    assert.equal(back.idTokenSigningAlg, 'RS256');
    await failsWith(
      ['org', 'update', '--org', 'console', '--dynamic-registration', 'true'],
      /^error: the console issuer always offers registration; it is not a setting there\n$/,
    );
    await failsWith(
      ['org', 'update', '--org', 'ghost', '--require-mfa', 'false'],
      /^error: no organization "ghost"\n$/,
    );
  });

  test('org update: the brand (colours, name, links, logo file)', async () => {
    const logo = fileURLToPath(new URL('./branding/fixtures/logo.png', import.meta.url));
    const answer = await ok([
      'org',
      'update',
      '--org',
      'acme',
      '--display-name',
      'Acme Corp',
      '--primary-colour',
      '#0b6e4f',
      '--terms-url',
      'https://acme.example/terms',
      '--logo',
      logo,
    ]);
    assert.deepEqual(answer.branding, {
      displayName: 'Acme Corp',
      logo: 'a740400a20f64535d794a248669d37a97aac22a08a1c5de6e90abacec98d6f80.png',
      favicon: null,
      primary: '#0b6e4f',
      background: null,
      termsUrl: 'https://acme.example/terms',
      privacyUrl: null,
    });
    // An empty value removes a field; a colour below AA contrast is refused in its words.
    const cleared = await ok(['org', 'update', '--org', 'acme', '--display-name', '', '--logo', '']);
    assert.deepEqual(cleared.branding, { ...(answer.branding as object), displayName: null, logo: null });
    await failsWith(
      ['org', 'update', '--org', 'acme', '--primary-colour', '#808080'],
      /^error: primary: #808080 reaches only 3\.98:1 with white or dark text; WCAG AA needs 4\.5:1/,
    );
  });

  test('org update: the sign-up policy', async () => {
    const domains = await ok([
      'org',
      'update',
      '--org',
      'acme',
      '--sign-up',
      'domains',
      '--sign-up-domain',
      'Acme.test',
      '--sign-up-domain',
      'partner.test',
    ]);
    assert.deepEqual(domains, {
      id: orgId,
      slug: 'acme',
      requireMfa: false,
      dynamicRegistration: false,
      metadataDocuments: false,
      signUp: 'domains',
      signUpDomains: ['acme.test', 'partner.test'],
      idTokenSigningAlg: 'RS256',
    });
    await failsWith(
      ['org', 'update', '--org', 'acme', '--sign-up', 'closed'],
      /--sign-up must be one of open, invite_only, domains/,
      2,
    );
    await failsWith(
      ['org', 'update', '--org', 'acme'],
      /give at least one of --require-mfa, --dynamic-registration, --metadata-documents, --sign-up, --sign-up-domain/,
      2,
    );
  });

  test('service-account create, list, rotate-secret, delete', async () => {
    const made = await ok([
      'service-account',
      'create',
      '--org',
      'acme',
      '--name',
      'Provisioning',
      '--scope',
      'org:write',
      '--scope',
      'org:read',
    ]);
    assert.deepEqual(Object.keys(made), ['clientId', 'clientSecret', 'name', 'scopes', 'tokenEndpoint']);
    assert.match(made.clientId as string, /^cli_/);
    assert.match(made.clientSecret as string, /^tcs_/);
    assert.deepEqual(made.scopes, ['org:read', 'org:write']);
    assert.equal(made.tokenEndpoint, 'http://localhost:4000/oauth/token');
    const listed = await ok(['service-account', 'list', '--org', 'acme']);
    assert.deepEqual(
      (listed.serviceAccounts as Record<string, unknown>[]).map((a) => [a.clientId, a.name, a.scopes]),
      [[made.clientId, 'Provisioning', ['org:read', 'org:write']]],
    );
    assert.equal(JSON.stringify(listed).includes(made.clientSecret as string), false);
    const id = made.clientId as string;
    const rotated = await ok(['service-account', 'rotate-secret', '--org', 'acme', '--client-id', id]);
    assert.equal(rotated.clientId, id);
    assert.match(rotated.clientSecret as string, /^tcs_/);
    assert.notEqual(rotated.clientSecret, made.clientSecret);
    await failsWith(
      ['service-account', 'create', '--org', 'acme', '--name', 'None'],
      /--scope is required/,
      2,
    );
    assert.deepEqual(await ok(['service-account', 'delete', '--org', 'acme', '--client-id', id]), {
      clientId: id,
      deleted: true,
    });
  });

  test('user create', async () => {
    const out = await ok([
      'user',
      'create',
      '--org',
      'acme',
      '--email',
      'grace@example.com',
      '--password',
      'cobol rules',
      '--first-name',
      'Grace',
      '--last-name',
      'Hopper',
    ]);
    assert.deepEqual(Object.keys(out), ['id', 'email', 'tenantId']);
    assert.match(out.id as string, /^usr_/);
    assert.equal(out.email, 'grace@example.com');
    assert.match(out.tenantId as string, /^tnt_/);
    const byId = await ok([
      'user',
      'create',
      '--org',
      orgId,
      '--email',
      'alan@example.com',
      '--password',
      'enigma machine',
    ]);
    assert.equal(byId.email, 'alan@example.com');
  });

  test('user create: errors for a bad email, a duplicate email, an unknown org, a short password', async () => {
    await failsWith(
      ['user', 'create', '--org', 'acme', '--email', 'nope@', '--password', 'long enough'],
      /^error: email is not a valid address\n$/,
    );
    await failsWith(
      ['user', 'create', '--org', 'acme', '--email', 'GRACE@example.com', '--password', 'long enough'],
      /^error: a user with email GRACE@example.com exists\n$/,
    );
    await failsWith(
      ['user', 'create', '--org', 'nowhere', '--email', 'x@example.com', '--password', 'long enough'],
      /^error: no organization "nowhere"\n$/,
    );
    await failsWith(
      ['user', 'create', '--org', 'acme', '--email', 'x@example.com', '--password', 'short'],
      /^error: password must be at least 8 characters\n$/,
    );
  });

  test('client create: confidential and public', async () => {
    const conf = await ok(['client', 'create', '--org', 'acme', '--name', 'Billing', '--confidential']);
    assert.deepEqual(Object.keys(conf), ['clientId', 'clientSecret', 'redirectUris', 'grantTypes']);
    assert.match(conf.clientId as string, /^cli_/);
    assert.match(conf.clientSecret as string, /^tcs_[\w-]{43}$/);
    assert.deepEqual(conf.redirectUris, []);
    assert.deepEqual(conf.grantTypes, ['client_credentials']);
    const pub = await ok([
      'client',
      'create',
      '--org',
      'acme',
      '--name',
      'SPA',
      '--public',
      '--redirect-uri',
      'https://app.example.com/cb',
      '--redirect-uri',
      'http://localhost:3000/cb',
    ]);
    assert.deepEqual(Object.keys(pub), ['clientId', 'redirectUris', 'grantTypes']);
    assert.deepEqual(pub.redirectUris, ['https://app.example.com/cb', 'http://localhost:3000/cb']);
    assert.deepEqual(pub.grantTypes, ['authorization_code', 'refresh_token']);
    const granted = await ok([
      'client',
      'create',
      '--org',
      'console',
      '--name',
      'Ops',
      '--confidential',
      '--grant',
      'client_credentials',
      '--jwks-uri',
      'https://ops.example.com/jwks.json',
      '--request-object-signing-alg',
      'PS256',
    ]);
    assert.deepEqual(granted.grantTypes, ['client_credentials']);
    // Its private_key_jwt keys are published at that URL (DESIGN §14); its request objects use PS256.
    assert.equal(granted.jwksUri, 'https://ops.example.com/jwks.json');
    assert.equal(granted.requestObjectSigningAlg, 'PS256');
    const signsOut = await ok([
      'client',
      'create',
      '--org',
      'acme',
      '--name',
      'Web app',
      '--public',
      '--redirect-uri',
      'https://app.example.com/cb',
      '--post-logout-redirect-uri',
      'https://app.example.com/signed-out',
    ]);
    assert.deepEqual(Object.keys(signsOut), [
      'clientId',
      'redirectUris',
      'postLogoutRedirectUris',
      'grantTypes',
    ]);
    assert.deepEqual(signsOut.postLogoutRedirectUris, ['https://app.example.com/signed-out']);
    // The redirect-URI rule applies to where sign-out returns, too.
    await failsWith(
      [
        ...['client', 'create', '--org', 'acme', '--name', 'X', '--public'],
        ...['--redirect-uri', 'https://a.example.com/cb', '--post-logout-redirect-uri', 'myapp://signed-out'],
      ],
      /^error: redirect URI/,
    );
  });

  test('client create --allowed-origin: the browser origins CORS answers, checked and stored', async () => {
    const spa = await ok([
      ...['client', 'create', '--org', 'acme', '--name', 'Browser app', '--public'],
      ...['--redirect-uri', 'https://app.example.com/cb'],
      ...['--allowed-origin', 'https://App.example.com', '--allowed-origin', 'http://localhost:5173'],
    ]);
    assert.deepEqual(Object.keys(spa), ['clientId', 'redirectUris', 'allowedOrigins', 'grantTypes']);
    assert.deepEqual(spa.allowedOrigins, ['https://app.example.com', 'http://localhost:5173']);
    for (const origin of ['https://app.example.com/', 'http://app.example.com', '*']) {
      await failsWith(
        [
          ...['client', 'create', '--org', 'acme', '--name', 'X', '--public'],
          ...['--redirect-uri', 'https://a.example.com/cb', '--allowed-origin', origin],
        ],
        new RegExp(
          `^error: allowed origin "${origin.replace(/[*.]/g, '\\$&')}" must be an origin, scheme://host\\[:port\\] with nothing after it`,
        ),
      );
    }
  });

  test('client create: back- and front-channel logout URIs, checked as the API checks them', async () => {
    const app = await ok([
      ...['client', 'create', '--org', 'acme', '--name', 'Portal', '--confidential'],
      ...['--redirect-uri', 'https://portal.example.com/cb'],
      ...['--backchannel-logout-uri', 'https://portal.example.com/backchannel'],
      ...['--frontchannel-logout-uri', 'https://portal.example.com/frontchannel'],
      '--frontchannel-logout-session-required',
    ]);
    assert.deepEqual(
      [
        app.backchannelLogoutUri,
        app.backchannelLogoutSessionRequired,
        app.frontchannelLogoutUri,
        app.frontchannelLogoutSessionRequired,
      ],
      ['https://portal.example.com/backchannel', false, 'https://portal.example.com/frontchannel', true],
    );
    const plain = await ok([
      ...['client', 'create', '--org', 'acme', '--name', 'Plain', '--public'],
      ...['--redirect-uri', 'https://plain.example.com/cb'],
    ]);
    assert.equal('backchannelLogoutUri' in plain, false);
    await failsWith(
      [
        ...['client', 'create', '--org', 'acme', '--name', 'X', '--public'],
        ...['--redirect-uri', 'https://x.example.com/cb'],
        ...['--backchannel-logout-uri', 'http://portal.example.com/backchannel'],
      ],
      /^error: backchannel_logout_uri must be https, or http on localhost, 127\.0\.0\.1 or \[::1\]\n$/,
    );
    await failsWith(
      [
        ...['client', 'create', '--org', 'acme', '--name', 'X', '--public'],
        '--backchannel-logout-session-required',
      ],
      /^error: --backchannel-logout-session-required needs --backchannel-logout-uri\n/,
      2,
    );
  });

  test('client create: errors', async () => {
    await failsWith(
      ['client', 'create', '--org', 'acme', '--name', 'X'],
      /^error: give exactly one of --confidential or --public\n/,
      2,
    );
    await failsWith(
      [
        'client',
        'create',
        '--org',
        'acme',
        '--name',
        'X',
        '--public',
        '--redirect-uri',
        'http://evil.example.com/cb',
      ],
      /^error: http redirect URIs are allowed on loopback only\n$/,
    );
    await failsWith(
      [
        'client',
        'create',
        '--org',
        'acme',
        '--name',
        'X',
        '--public',
        '--grant',
        'client_credentials',
        '--redirect-uri',
        'https://a.example/cb',
      ],
      /^error: a public client cannot use client_credentials\n$/,
    );
    await failsWith(
      ['client', 'create', '--org', 'acme', '--name', 'X', '--confidential', '--grant', 'password'],
      /^error: unknown grant type "password"\n$/,
    );
    await failsWith(
      ['client', 'create', '--org', 'ghost', '--name', 'X', '--confidential'],
      /^error: no organization "ghost"\n$/,
    );
  });

  test('member add: an existing console user, a new one, a role change', async () => {
    const existing = await ok([
      'member',
      'add',
      '--org',
      'acme',
      '--email',
      'ada@acme.test',
      '--role',
      'member',
    ]);
    assert.deepEqual(Object.keys(existing), ['orgId', 'userId', 'email', 'role']);
    assert.equal(existing.orgId, orgId);
    assert.equal(existing.role, 'member');
    const fresh = await ok([
      'member',
      'add',
      '--org',
      'acme',
      '--email',
      'linus@example.com',
      '--role',
      'owner',
      '--password',
      'kernel hacker',
    ]);
    assert.match(fresh.userId as string, /^usr_/);
    assert.equal(fresh.role, 'owner');
  });

  test('member add: errors', async () => {
    await failsWith(
      ['member', 'add', '--org', 'acme', '--email', 'nobody@example.com', '--role', 'owner'],
      /^error: nobody@example\.com is not a console user yet: a password is required\n$/,
    );
    await failsWith(
      ['member', 'add', '--org', 'acme', '--email', 'ada@acme.test', '--role', 'admin'],
      /^error: --role must be owner or member\n/,
      2,
    );
    await failsWith(
      ['member', 'add', '--org', 'ghost', '--email', 'ada@acme.test', '--role', 'owner'],
      /^error: no organization "ghost"\n$/,
    );
    await failsWith(
      [
        'member',
        'add',
        '--org',
        'acme',
        '--email',
        'bad email',
        '--role',
        'owner',
        '--password',
        'long enough',
      ],
      /^error: email is not a valid address\n$/,
    );
  });

  let invitationId = '';
  test('invitation create, list, revoke: a user invitation as a link, a member one by mail', async () => {
    const link = await ok(['invitation', 'create', '--org', 'acme', '--email', 'grace@example.com']);
    assert.deepEqual(Object.keys(link), [
      'id',
      'kind',
      'email',
      'role',
      'roles',
      'state',
      'expiresAt',
      'acceptedAt',
      'url',
    ]);
    assert.match(link.id as string, /^inv_/);
    assert.deepEqual(
      [link.kind, link.email, link.role, link.state],
      ['user', 'grace@example.com', null, 'pending'],
    );
    assert.match(link.url as string, /^http:\/\/acme\.localhost:4000\/invitation\?token=tin_/);
    invitationId = link.id as string;
    // By mail (development: the mail is a log line on stderr); the link is not printed.
    const mailed = await tessera(
      ['invitation', 'create', '--org', 'acme', '--email', 'hopper@example.com', '--role', 'owner', '--mail'],
      env,
    );
    assert.equal(mailed.code, 0, mailed.stderr);
    const out = mailed.json as Record<string, unknown>;
    assert.deepEqual([out.kind, out.role, 'url' in out], ['member', 'owner', false]);
    assert.match(mailed.stderr, /You are invited to manage Acme Inc/);
    assert.match(mailed.stderr, /http:\/\/localhost:4000\/invitation\?token=tin_/);

    const listed = await ok(['invitation', 'list', '--org', 'acme', '--state', 'pending']);
    assert.deepEqual(
      (listed.invitations as { email: string; kind: string }[]).map((i) => [i.kind, i.email]),
      [
        ['member', 'hopper@example.com'],
        ['user', 'grace@example.com'],
      ],
    );
    assert.ok(!JSON.stringify(listed).includes('tin_'), 'no link in the list');
    assert.deepEqual(await ok(['invitation', 'revoke', '--org', 'acme', '--id', invitationId]), {
      id: invitationId,
      revoked: true,
    });
  });

  test('invitation: errors', async () => {
    await failsWith(
      ['invitation', 'revoke', '--org', 'acme', '--id', invitationId],
      /^error: no such invitation\n$/,
    );
    await failsWith(
      ['invitation', 'create', '--org', 'acme', '--email', 'x@example.com', '--role', 'admin'],
      /^error: --role must be owner or member\n/,
      2,
    );
    await failsWith(
      ['invitation', 'create', '--org', 'acme', '--email', 'hopper@example.com', '--role', 'member'],
      /^error: hopper@example\.com has a pending invitation already: withdraw it to send another\n$/,
    );
    await failsWith(
      ['invitation', 'list', '--org', 'acme', '--state', 'gone'],
      /^error: --state must be pending, accepted or expired\n/,
      2,
    );
  });

  test('keys rotate', async () => {
    const first = await ok(['keys', 'rotate', '--org', 'acme']);
    assert.deepEqual(Object.keys(first), ['kid']);
    assert.match(first.kid as string, /^[\w-]{43}$/);
    const second = await ok(['keys', 'rotate', '--org', 'acme']);
    assert.notEqual(second.kid, first.kid);
    await failsWith(['keys', 'rotate', '--org', 'ghost'], /^error: no organization "ghost"\n$/);
  });

  test('log-stream create, list, show, update, delete: the API’s view, secrets from stdin and never printed back', async () => {
    // Nothing streams here (no serve, no worker): the destinations below are stored, never reached.
    const token = 'hec-token-0123456789abcdef';
    const created = await tessera(
      [
        'log-stream',
        'create',
        '--org',
        'acme',
        '--type',
        'splunk_hec',
        '--name',
        'Splunk',
        '--url',
        'https://splunk.siem.example:8088',
        '--index',
        'identity',
        '--backfill-from',
        '2024-05-01',
      ],
      env,
      `${token}\n`,
    );
    assert.equal(created.code, 0, created.stderr);
    const splunk = created.json as Record<string, unknown>;
    assert.match(splunk.id as string, /^lst_/);
    assert.deepEqual(
      { ...splunk, id: '', createdAt: '', updatedAt: '', lag: null },
      {
        id: '',
        name: 'Splunk',
        type: 'splunk_hec',
        url: 'https://splunk.siem.example:8088',
        settings: { index: 'identity' },
        active: true,
        backfillFrom: '2024-05-01T00:00:00.000Z',
        status: 'active',
        lastError: null,
        lastErrorAt: null,
        lastSentAt: null,
        sentEntries: 0,
        lag: null,
        createdAt: '',
        updatedAt: '',
      },
    );
    // From 2024 on: every entry of acme so far waits, the stream's own creation included.
    assert.ok((splunk.lag as { entries: number }).entries > 1);
    // The https type makes its own signing secret and shows it this once; bad input is the API's words.
    const https = await ok([
      ...['log-stream', 'create', '--org', 'acme', '--type', 'https', '--name', 'Hook'],
      ...['--url', 'https://siem.example/in'],
    ]);
    assert.match(https.secret as string, /^whsec_/);
    await failsWith(
      [
        'log-stream',
        'create',
        '--org',
        'acme',
        '--type',
        'https',
        '--name',
        'H',
        '--url',
        'http://siem.example/',
      ],
      /^error: url: must be an absolute https URL without credentials\n$/,
    );

    // The new token comes on stdin too; a setting of the type changes, the stream pauses.
    const updated = await tessera(
      [
        ...['log-stream', 'update', '--org', 'acme', '--id', splunk.id as string],
        ...['--pause', '--new-secret', '--sourcetype', 'tessera:json'],
      ],
      env,
      'hec-token-rotated-9876543210\n',
    );
    assert.equal(updated.code, 0, updated.stderr);
    const shown = await ok(['log-stream', 'show', '--org', 'acme', '--id', splunk.id as string]);
    assert.deepEqual(
      [shown.status, shown.active, shown.settings],
      ['paused', false, { index: 'identity', sourcetype: 'tessera:json' }],
    );
    const listed = await tessera(['log-stream', 'list', '--org', 'acme'], env);
    assert.deepEqual(
      (listed.json as { data: { id: string }[] }).data.map((s) => s.id),
      [splunk.id, https.id],
    );
    for (const out of [created, updated, listed]) {
      for (const secret of [token, 'hec-token-rotated-9876543210', https.secret as string]) {
        assert.ok(!`${out.stdout}${out.stderr}`.includes(secret), 'a secret printed back');
      }
    }
    assert.deepEqual(await ok(['log-stream', 'delete', '--org', 'acme', '--id', https.id as string]), {
      deleted: https.id,
    });
  });

  test('usage errors: unknown command, unknown flag', async () => {
    await failsWith(['org', 'destroy'], /^error: unknown command: org destroy\n/, 2);
    await failsWith(['keys', 'rotate', '--org', 'acme', '--force'], /^error: unknown flag --force\n/, 2);
    // Checked before the worker opens the database.
    for (const n of ['0', '1001', 'many']) {
      await failsWith(
        ['worker', '--concurrency', n],
        /^error: --concurrency must be a whole number from 1 to 1000\n/,
        2,
      );
    }
  });

  test('bad configuration stops with one line naming the variable', async () => {
    // An admin command answers with an error line; serve, a process whose every line is a log
    // line, with one JSON line at level fatal.
    const res = await tessera(['keys', 'rotate', '--org', 'acme'], { ...env, TESSERA_URL: 'not a url' });
    assert.equal(res.code, 1);
    assert.equal(
      res.stderr,
      'error: TESSERA_URL must be an absolute http(s) URL such as http://localhost:4000\n',
    );
    const port = await tessera(['serve'], { ...env, PORT: 'eighty' });
    assert.equal(port.code, 1);
    assert.equal(port.stderr, '');
    assert.equal(port.json?.level, 60);
    assert.equal(port.json?.msg, 'PORT must be a whole number from 0 to 65535');
    const pool = await tessera(['serve'], { ...env, TESSERA_DB_POOL: 'many' });
    assert.equal(pool.code, 1);
    assert.equal(pool.stderr, '');
    assert.equal(pool.stdout.trim().split('\n').length, 1);
    assert.equal(pool.json?.level, 60);
    assert.equal(pool.json?.msg, 'TESSERA_DB_POOL must be a whole number from 1 to 200');
  });

  test('the binary in a process of its own answers as in the session: an answer, an error, a usage error', async () => {
    const cases: [string[], number][] = [
      [['org', 'update', '--org', 'acme', '--require-mfa', 'false'], 0],
      [['role', 'list', '--org', 'acme'], 0],
      [['org', 'create', '--slug', 'acme', '--owner-email', 'ada@acme.test'], 1],
      [['keys', 'rotate', '--org', 'nowhere'], 1],
      [['org', 'update', '--org', 'acme'], 2],
      [['org', 'destroy'], 2],
    ];
    for (const [args, code] of cases) {
      const own = await tesseraProcess(args, env);
      assert.equal(own.code, code, `exit status of tessera ${args.join(' ')}: ${own.stderr}`);
      assert.deepEqual(own, await tessera(args, env), `tessera ${args.join(' ')}`);
    }
  });
});
