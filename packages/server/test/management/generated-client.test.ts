import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { startServer, type TestServer } from '../support/server.js';
import { runNode } from '../support/tessera-process.js';
import { addConsoleMember, consoleOf, ownedOrg } from './support/console.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;

/**
 * An org owner's whole journey through the management API, written as a client author would:
 * openapi-fetch typed by the types openapi-typescript generated from the served document. It is
 * type-checked (strict) before it runs; each step checks its status and body, and prints a line.
 */
const JOURNEY = String.raw`
import assert from 'node:assert/strict';
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type Schemas = components['schemas'];

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(name + ' is not set');
  return value;
};
const api = createClient<paths>({
  baseUrl: env('TESSERA_BASE'),
  headers: { authorization: 'Bearer ' + env('TESSERA_TOKEN') },
});
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function step(name: string, response: Response, status: number): void {
  assert.equal(response.status, status, name);
  console.log(name + ' ' + response.status);
}

// The caller's orgs: the one they own already.
const before = await api.GET('/organizations');
step('listOrganizations', before.response, 200);
assert.deepEqual(
  before.data?.map((o) => [o.slug, o.role]),
  [['seed', 'owner']],
);

// A new org; its owner is the caller.
const org = await api.POST('/organizations', { body: { slug: 'journey', name: 'Journey Inc' } });
step('createOrganization', org.response, 201);
assert.ok(org.data);
const created: Schemas['CreatedOrganization'] = org.data;
assert.match(created.id, /^org_/);
assert.deepEqual(created, {
  id: created.id,
  slug: 'journey',
  name: 'Journey Inc',
  issuer: env('JOURNEY_ISSUER'),
});
const path = { org: 'journey' };

const settings = await api.PATCH('/organizations/{org}/settings', {
  params: { path },
  body: { name: 'Journey Corp', require_mfa: false, sign_up: 'domains', sign_up_domains: ['journey.test'] },
});
step('updateOrganizationSettings', settings.response, 200);
assert.deepEqual(settings.data, {
  id: created.id,
  slug: 'journey',
  name: 'Journey Corp',
  issuer: env('JOURNEY_ISSUER'),
  require_mfa: false,
  dynamic_registration: false,
  metadata_documents: false,
  sign_up: 'domains',
  sign_up_domains: ['journey.test'],
  require_pushed_authorization_requests: false,
  id_token_signing_alg: 'RS256',
  default_locale: null,
});

// A confidential client, then a new secret for it.
const client = await api.POST('/organizations/{org}/clients', {
  params: { path },
  body: {
    client_name: 'Journey web',
    type: 'confidential',
    redirect_uris: ['https://journey.example/callback'],
  },
});
step('createClient', client.response, 201);
assert.ok(client.data);
const { client_id, client_secret, created_at } = client.data;
assert.match(client_id, /^cli_/);
assert.match(client_secret ?? '', /^tcs_/);
assert.match(created_at, ISO);
assert.deepEqual(client.data, {
  client_id,
  client_name: 'Journey web',
  type: 'confidential',
  redirect_uris: ['https://journey.example/callback'],
  post_logout_redirect_uris: [],
  grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
  first_party: true,
  allowed_origins: ['https://journey.example'],
  created_at,
  client_secret,
});
const secret = await api.POST('/organizations/{org}/clients/{id}/secret', {
  params: { path: { ...path, id: client_id } },
});
step('rotateClientSecret', secret.response, 200);
assert.match(secret.data?.client_secret ?? '', /^tcs_/);
assert.notEqual(secret.data?.client_secret, client_secret);
const read = await api.GET('/organizations/{org}/clients/{id}', { params: { path: { ...path, id: client_id } } });
step('getClient', read.response, 200);
const { client_secret: _, ...listed } = client.data;
assert.deepEqual(read.data, listed);

// A user of the org.
const user = await api.POST('/organizations/{org}/users', {
  params: { path },
  body: {
    email: 'ada@journey.example',
    password: 'correct horse battery',
    first_name: 'Ada',
    last_name: null,
    locale: 'en-gb',
    phone_number: '+442079460000',
    address: { locality: 'London', country: 'United Kingdom' },
  },
});
step('createUser', user.response, 201);
assert.ok(user.data);
const userId = user.data.id;
assert.match(userId, /^usr_/);
assert.deepEqual(user.data, {
  id: userId,
  email: 'ada@journey.example',
  first_name: 'Ada',
  last_name: null,
  disabled: false,
  created_at: user.data.created_at,
  middle_name: null,
  nickname: null,
  preferred_username: null,
  profile: null,
  picture: null,
  website: null,
  gender: null,
  birthdate: null,
  zoneinfo: null,
  locale: 'en-GB',
  phone_number: '+442079460000',
  phone_number_verified: false,
  address: { locality: 'London', country: 'United Kingdom' },
  updated_at: user.data.created_at,
});
assert.match(user.data.created_at, ISO);
const found = await api.GET('/organizations/{org}/users', {
  params: { path, query: { q: 'ADA', per_page: 50, page: 0 } },
});
step('listUsers', found.response, 200);
assert.deepEqual(
  found.data?.map((u) => u.id),
  [userId],
);

// A colleague is invited to be a member: nobody is added before they accept the link.
const member = await api.POST('/organizations/{org}/members', {
  params: { path },
  body: { email: 'colleague@seed.test', role: 'member', send_mail: false },
});
step('addMember', member.response, 201);
assert.ok(member.data);
assert.match(member.data.id, /^inv_/);
assert.deepEqual(
  [member.data.kind, member.data.email, member.data.role, member.data.state],
  ['member', 'colleague@seed.test', 'member', 'pending'],
);
assert.match(member.data.url ?? '', /[/]invitation[?]token=tin_/);
const members = await api.GET('/organizations/{org}/members', { params: { path } });
step('listMembers', members.response, 200);
assert.deepEqual(
  members.data?.map((m) => [m.email, m.role]),
  [['owner@seed.test', 'owner']],
);

// An end user invited by link; the pending invitations; one read; one withdrawn.
const invited = await api.POST('/organizations/{org}/invitations', {
  params: { path },
  body: { email: 'grace@journey.example', send_mail: false },
});
step('createInvitation', invited.response, 201);
assert.ok(invited.data);
const invitation: Schemas['CreatedInvitation'] = invited.data;
const pending = await api.GET('/organizations/{org}/invitations', {
  params: { path, query: { state: 'pending' } },
});
step('listInvitations', pending.response, 200);
assert.deepEqual(
  pending.data?.map((i) => [i.kind, i.email]),
  [
    ['user', 'grace@journey.example'],
    ['member', 'colleague@seed.test'],
  ],
);
const one = await api.GET('/organizations/{org}/invitations/{id}', {
  params: { path: { ...path, id: invitation.id } },
});
step('getInvitation', one.response, 200);
assert.equal(one.data?.expires_at, invitation.expires_at);
const withdrawn = await api.DELETE('/organizations/{org}/invitations/{id}', {
  params: { path: { ...path, id: invitation.id } },
});
step('deleteInvitation', withdrawn.response, 204);

// A webhook for every user change.
const webhook = await api.POST('/organizations/{org}/webhooks', {
  params: { path },
  body: { url: 'https://hooks.journey.example/tessera', events: ['user.*'] },
});
step('createWebhook', webhook.response, 201);
assert.ok(webhook.data);
const hook: Schemas['CreatedWebhook'] = webhook.data;
assert.match(hook.id, /^whk_/);
assert.match(hook.secret, /^whsec_/);
assert.deepEqual(hook, {
  id: hook.id,
  url: 'https://hooks.journey.example/tessera',
  events: ['user.*'],
  active: true,
  created_at: hook.created_at,
  secret: hook.secret,
});
const paused = await api.PATCH('/organizations/{org}/webhooks/{id}', {
  params: { path: { ...path, id: hook.id } },
  body: { active: false },
});
step('updateWebhook', paused.response, 200);
const { secret: __, ...stored } = hook;
assert.deepEqual(paused.data, { ...stored, active: false });

// The signing keys: rotate, and the next key signs.
const keys = await api.GET('/organizations/{org}/keys', { params: { path } });
step('listSigningKeys', keys.response, 200);
const next = keys.data?.find((k) => k.state === 'next');
assert.ok(next);
const rotated = await api.POST('/organizations/{org}/keys/rotate', { params: { path } });
step('rotateSigningKeys', rotated.response, 200);
assert.deepEqual(rotated.data, { kid: next.kid });
const after = await api.GET('/organizations/{org}/keys', { params: { path } });
step('listSigningKeys', after.response, 200);
assert.equal(after.data?.find((k) => k.state === 'active')?.kid, next.kid);

// The audit log: newest first, one entry per page here, a Link to the next page.
const events = await api.GET('/organizations/{org}/events', { params: { path } });
step('listEvents', events.response, 200);
assert.ok(events.data);
const entries: Schemas['AuditEntry'][] = events.data;
// Every change of the journey, newest first (a user comes with a tenant of their own).
assert.deepEqual(
  entries.map((e) => e.key),
  [
    'signing_key.updated',
    'webhook.updated',
    'webhook.created',
    'invitation.deleted',
    'invitation.created',
    'invitation.created',
    'tenant.created',
    'user.created',
    'client.updated',
    'client.created',
    'organization.updated',
    'membership.created',
    'organization.created',
  ],
);
for (const entry of entries) {
  assert.match(entry.at, ISO);
  assert.equal(entry.actor.kind, 'user', entry.key);
}
assert.equal(new Set(entries.map((e) => ('id' in e.actor ? e.actor.id : null))).size, 1, 'one actor');
const text = JSON.stringify(entries);
for (const shown of [client_secret, secret.data?.client_secret, hook.secret, 'correct horse battery']) {
  assert.ok(shown !== undefined && !text.includes(shown), 'no secret in the audit log');
}
const users = await api.GET('/organizations/{org}/events', { params: { path, query: { entity: 'user' } } });
step('listEvents', users.response, 200);
assert.deepEqual(
  users.data?.map((e) => e.key),
  ['user.created'],
);
const second = await api.GET('/organizations/{org}/events', { params: { path, query: { per_page: 1, page: 1 } } });
step('listEvents', second.response, 200);
assert.deepEqual(second.data, [entries[1]]);
const link = second.response.headers.get('link') ?? '';
for (const rel of ['first', 'prev', 'next', 'last']) assert.match(link, new RegExp('rel="' + rel + '"'));
`;

/** Runs `args` with node in `cwd`; resolves with the exit code and what it printed. */
const node = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  runNode(args, { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', ...env } });

const typecheck = (dir: string) => node([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], dir);

describe('a client generated from /openapi.json drives an owner’s journey', () => {
  let server: TestServer;
  let dir: string;

  before(async () => {
    server = await startServer({ webhooks: false });
    const seed = await ownedOrg(server, 'seed');
    await addConsoleMember(server, seed, 'colleague@seed.test', 'member');
    dir = mkdtempSync(join(tmpdir(), 'tessera-generated-client-'));
    // The program resolves openapi-fetch, tsx and the Node types from the repository.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          // The libraries' own declarations are not what is checked; the generated api.ts is.
          skipLibCheck: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          verbatimModuleSyntax: true,
          lib: ['ES2023', 'DOM'],
          types: ['node'],
        },
        include: ['*.ts'],
      }),
    );
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('openapi-typescript types, a strict tsc, then every step with openapi-fetch', async () => {
    const res = await fetch(`${server.base}/openapi.json`);
    assert.equal(res.status, 200);
    const types = astToString(await openapiTS(await res.json()));
    writeFileSync(join(dir, 'api.ts'), types);
    // Named components and integer page parameters reach the generated types.
    assert.match(types, /\bCreatedWebhook: \{/);
    assert.match(types, /per_page\?: 1 \| 50 \| 100;/);
    writeFileSync(join(dir, 'journey.ts'), JOURNEY);

    const checked = await typecheck(dir);
    assert.equal(checked.stdout + checked.stderr, '');
    assert.equal(checked.code, 0);

    const token = await (await consoleOf(server)).token('owner@seed.test');
    const run = await node(['--import', 'tsx', 'journey.ts'], dir, {
      TESSERA_BASE: server.base,
      TESSERA_TOKEN: token,
      JOURNEY_ISSUER: server.issuer('journey'),
    });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
    assert.deepEqual(run.stdout.trim().split('\n'), [
      'listOrganizations 200',
      'createOrganization 201',
      'updateOrganizationSettings 200',
      'createClient 201',
      'rotateClientSecret 200',
      'getClient 200',
      'createUser 201',
      'listUsers 200',
      'addMember 201',
      'listMembers 200',
      'createInvitation 201',
      'listInvitations 200',
      'getInvitation 200',
      'deleteInvitation 204',
      'createWebhook 201',
      'updateWebhook 200',
      'listSigningKeys 200',
      'rotateSigningKeys 200',
      'listSigningKeys 200',
      'listEvents 200',
      'listEvents 200',
      'listEvents 200',
    ]);
  });

  test('the generated types refuse a request the API would refuse', async () => {
    writeFileSync(
      join(dir, 'wrong.ts'),
      `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';
const api = createClient<paths>({ baseUrl: 'http://localhost' });
await api.POST('/organizations/{org}/clients', {
  params: { path: { org: 'journey' } },
  body: { client_name: 'x', type: 'secret' },
});
await api.GET('/organizations/{org}/events', { params: { path: { org: 'journey' }, query: { per_page: 7 } } });
await api.POST('/organizations/{org}/webhooks', { params: { path: { org: 'journey' } }, body: { url: 'https://x.example' } });
`,
    );
    const checked = await typecheck(dir);
    rmSync(join(dir, 'wrong.ts'));
    assert.equal(checked.code, 2);
    const errors = [...checked.stdout.matchAll(/^wrong\.ts\((\d+),\d+\): error (TS\d+)/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    assert.deepEqual(errors, ['7 TS2322', '9 TS2322', '10 TS2322']);
  });
});
