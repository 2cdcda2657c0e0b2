// What the list bench needs, written into the store before `tessera serve` starts, by the bench's own
// runtime (kept open to mint console tokens as the run goes on: they live 15 minutes): the org `acme`
// and OTHER_ORGS others, one real row of each kind made through the domain, and that row copied in bulk
// (seed.ts) to the configured scale.

import { loadConfig } from '../../packages/server/src/config/config.js';
import { createClient } from '../../packages/server/src/domain/directory/clients.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { createServiceAccount } from '../../packages/server/src/domain/directory/service-accounts.js';
import { createUser } from '../../packages/server/src/domain/directory/users.js';
import { createConnection } from '../../packages/server/src/domain/federation/connections.js';
import { createApiResource } from '../../packages/server/src/domain/resources/api-resources.js';
import { createRole } from '../../packages/server/src/domain/resources/roles.js';
import { openSession } from '../../packages/server/src/domain/sessions/sessions.js';
import { PASSWORD_SIGN_IN } from '../../packages/server/src/domain/sign-in/browser-sessions.js';
import { createInvitation } from '../../packages/server/src/domain/teams/invitations.js';
import { signSessionToken } from '../../packages/server/src/domain/tokens/user-tokens.js';
import { type Org, SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';
import { findConsoleOrg } from '../../packages/server/src/storage/repos/orgs.js';
import { onCleanup } from '../support/children.js';
import { type Dialect, expr, generate, settle } from './seed.js';

const count = (name: string, fallback: number) =>
  Number(process.env[name]) >= 0 && process.env[name] !== undefined && process.env[name] !== ''
    ? Number(process.env[name])
    : fallback;

/** The scale, each from its environment variable; defaults are issue #32's numbers. */
export const SCALE = {
  users: count('BENCH_USERS', 1_000_000),
  otherUsers: count('BENCH_OTHER_USERS', 1_000_000),
  clients: count('BENCH_CLIENTS', 100_000),
  otherClients: count('BENCH_OTHER_CLIENTS', 100_000),
  members: count('BENCH_MEMBERS', 10_000),
  resources: count('BENCH_RESOURCES', 10_000),
  roles: count('BENCH_ROLES', 10_000),
  invitations: count('BENCH_INVITATIONS', 10_000),
  serviceAccounts: count('BENCH_SERVICE_ACCOUNTS', 10_000),
  connections: count('BENCH_CONNECTIONS', 10_000),
};
export const OTHER_ORGS = 20;

export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Barbara',
  'Edsger',
  'Donald',
  'Frances',
  'Ken',
  'Radia',
];
export const LAST_NAMES = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Liskov',
  'Dijkstra',
  'Knuth',
  'Allen',
  'Thompson',
  'Perlman',
  'Nguyen',
  'Okafor',
  'Silva',
  'Kowalski',
  'Tanaka',
  'Haddad',
  'Johansson',
  'Moreau',
  'Ivanova',
  'Mensah',
];

export interface Cast {
  acme: Org;
  /** Rows seeded per table and how long the seeding took, in seconds. */
  seeded: { table: string; rows: number; seconds: number }[];
  /** A fresh console token of acme's owner (scopes org:read and events:read). */
  token(): Promise<string>;
}

const DAY = 86_400_000;

export async function setUp(
  env: NodeJS.ProcessEnv,
  dialect: Dialect,
  progress: (line: string) => void,
): Promise<Cast> {
  const runtime = await openRuntime(loadConfig(env), () => {});
  onCleanup(() => runtime.close());
  const { deps } = runtime;
  const db = runtime.db;
  const x = expr(dialect);
  const consoleOrg = await findConsoleOrg(db);
  if (!consoleOrg) throw new Error('no console org');
  const { client: consoleClient } = await createClient(
    deps,
    consoleOrg,
    { name: 'Bench console', kind: 'public', redirectUris: ['http://127.0.0.1:9/cb'] },
    SYSTEM,
  );
  const { org: acme, owner } = await createOrg(deps, {
    slug: 'acme',
    ownerEmail: 'owner@acme.test',
    ownerPassword: 'bench password 1',
  });
  const others: Org[] = [];
  for (let i = 0; i < OTHER_ORGS; i++) {
    const { org } = await createOrg(deps, {
      slug: `other-${i}`,
      ownerEmail: `owner@other-${i}.test`,
      ownerPassword: 'bench password 1',
    });
    others.push(org);
  }

  // One real row of each kind, the template of its copies.
  const { user } = await createUser(deps, acme, { email: 'template@acme.test', password: null }, SYSTEM);
  const { client } = await createClient(
    deps,
    acme,
    { name: 'Template', kind: 'confidential', redirectUris: ['https://app.bench.test/cb'] },
    SYSTEM,
  );
  const resource = await createApiResource(
    deps,
    acme,
    {
      identifier: 'https://api.bench.test/template',
      name: 'Template',
      scopes: [{ name: 'read', description: 'Read' }],
    },
    SYSTEM,
  );
  const role = await createRole(deps, acme, { name: 'template', description: 'A role' }, SYSTEM);
  const { invitation } = await createInvitation(
    deps,
    acme,
    { kind: 'user', email: 'invitee@acme.test', role: null, sendMail: false },
    SYSTEM,
  );
  const { account } = await createServiceAccount(
    deps,
    acme,
    { name: 'Template', scopes: ['org:read'] },
    SYSTEM,
  );
  const connection = await createConnection(
    deps,
    acme,
    {
      type: 'oidc',
      name: 'Template',
      issuer: 'https://idp.bench.test',
      clientId: 'bench',
      clientSecret: 'bench connection secret',
    },
    SYSTEM,
  );

  // Copies are older than the templates: created_at = start + g seconds, a year back.
  const start = Date.now() - 366 * DAY;
  const at = (offset = 0) => `${start + offset} + g * 1000`;
  const seeded: Cast['seeded'] = [];
  const timed = async (table: string, rows: number, load: () => Promise<void>) => {
    const t0 = performance.now();
    await load();
    seeded.push({ table, rows, seconds: (performance.now() - t0) / 1000 });
    progress(
      `${table}: ${rows.toLocaleString('en-US')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  };
  const userColumns = (orgId: string, tag: string, domain: string) => {
    const first = x.pick(FIRST_NAMES, `g % ${FIRST_NAMES.length}`);
    const last = x.pick(LAST_NAMES, `(g / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}`);
    const email = `lower(${first}) || '.' || lower(${last}) || '.' || ${x.pad(7)} || '@${domain}'`;
    return {
      id: `'usr_b${tag}' || ${x.pad(7)}`,
      org_id: x.text(orgId),
      email,
      email_key: email,
      first_name: first,
      last_name: last,
      created_at: at(),
      updated_at: at(),
    };
  };
  const userTemplate = { key: 'id', value: user.id };
  await timed('users (acme)', SCALE.users, () =>
    generate(db, dialect, 'users', SCALE.users, userColumns(acme.id, 'a', 'acme-corp.test'), userTemplate),
  );
  const perOther = Math.floor(SCALE.otherUsers / OTHER_ORGS);
  await timed('users (other orgs)', perOther * OTHER_ORGS, async () => {
    for (const [i, org] of others.entries()) {
      await generate(
        db,
        dialect,
        'users',
        perOther,
        userColumns(org.id, `o${i}_`, `other-${i}.test`),
        userTemplate,
      );
    }
  });

  const clientColumns = (orgId: string, tag: string) => ({
    id: `'cli_b${tag}' || ${x.pad(7)}`,
    org_id: x.text(orgId),
    name: `'Client ' || ${x.pad(7)}`,
    created_at: at(),
    updated_at: at(),
  });
  const clientTemplate = { key: 'id', value: client.id };
  await timed('clients (acme)', SCALE.clients, () =>
    generate(db, dialect, 'clients', SCALE.clients, clientColumns(acme.id, 'a'), clientTemplate),
  );
  const clientsPerOther = Math.floor(SCALE.otherClients / OTHER_ORGS);
  await timed('clients (other orgs)', clientsPerOther * OTHER_ORGS, async () => {
    for (const [i, org] of others.entries()) {
      await generate(
        db,
        dialect,
        'clients',
        clientsPerOther,
        clientColumns(org.id, `o${i}_`),
        clientTemplate,
      );
    }
  });

  // Members: console users, each a member (every tenth an owner) of acme.
  await timed('members (console users + memberships)', SCALE.members, async () => {
    const memberUser = userColumns(consoleOrg.id, 'm', 'members.test');
    await generate(db, dialect, 'users', SCALE.members, memberUser, userTemplate);
    await generate(
      db,
      dialect,
      'memberships',
      SCALE.members,
      {
        org_id: x.text(acme.id),
        user_id: memberUser.id,
        role: `case when g % 10 = 0 then 'owner' else 'member' end`,
        created_at: at(),
      },
      null,
    );
  });

  await timed('api_resources', SCALE.resources, () =>
    generate(
      db,
      dialect,
      'api_resources',
      SCALE.resources,
      {
        id: `'api_b' || ${x.pad(7)}`,
        identifier: `'https://api.bench.test/' || ${x.pad(7)}`,
        name: `'Resource ' || ${x.pad(7)}`,
        created_at: at(),
        updated_at: at(),
      },
      { key: 'id', value: resource.id },
    ),
  );
  await timed('roles', SCALE.roles, () =>
    generate(
      db,
      dialect,
      'roles',
      SCALE.roles,
      {
        id: `'rol_b' || ${x.pad(7)}`,
        name: `'role-' || ${x.pad(7)}`,
        created_at: at(),
        updated_at: at(),
      },
      { key: 'id', value: role.id },
    ),
  );
  // Invitations: a quarter `member` ones; by g mod 10: 0–2 accepted, 3–5 expired, 6–8 pending,
  // 9 withdrawn (never listed).
  const now = Date.now();
  await timed('invitations', SCALE.invitations, () =>
    generate(
      db,
      dialect,
      'invitations',
      SCALE.invitations,
      {
        id: `'inv_b' || ${x.pad(7)}`,
        kind: `case when g % 4 = 0 then 'member' else 'user' end`,
        role: `case when g % 4 = 0 then 'member' end`,
        email: `'invitee.' || ${x.pad(7)} || '@acme-corp.test'`,
        email_key: `'invitee.' || ${x.pad(7)} || '@acme-corp.test'`,
        token_hash: `'bench' || ${x.pad(7)}`,
        created_at: at(),
        expires_at: `case when g % 10 between 3 and 5 then ${at(1000)} else ${now + 30 * DAY} + g end`,
        accepted_at: `case when g % 10 < 3 then ${at(500)} end`,
        revoked_at: `case when g % 10 = 9 then ${at(500)} end`,
      },
      { key: 'id', value: invitation.id },
    ),
  );
  await timed('service accounts (console clients + bindings)', SCALE.serviceAccounts, async () => {
    const id = `'cli_s' || ${x.pad(7)}`;
    await generate(
      db,
      dialect,
      'clients',
      SCALE.serviceAccounts,
      { id, name: `'Service ' || ${x.pad(7)}`, created_at: at(), updated_at: at() },
      { key: 'id', value: account.id },
    );
    await generate(
      db,
      dialect,
      'service_accounts',
      SCALE.serviceAccounts,
      { client_id: id, created_at: at() },
      { key: 'client_id', value: account.id },
    );
  });
  await timed('connections', SCALE.connections, () =>
    generate(
      db,
      dialect,
      'connections',
      SCALE.connections,
      {
        id: `'con_b' || ${x.pad(7)}`,
        name: `'Connection ' || ${x.pad(7)}`,
        created_at: at(),
        updated_at: at(),
      },
      { key: 'id', value: connection.id },
    ),
  );
  const t0 = performance.now();
  await settle(db, dialect);
  progress(
    `${dialect === 'postgres' ? 'vacuum analyze' : 'analyze'}: ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  return {
    acme,
    seeded,
    async token() {
      const issued = Date.now();
      const session = await deps.unitOfWork.run((trx) =>
        openSession(
          trx,
          consoleOrg,
          {
            userId: owner.id,
            clientId: consoleClient.id,
            ...PASSWORD_SIGN_IN,
            scope: 'openid org:read events:read',
          },
          issued,
        ),
      );
      const signer = await deps.keyRing.signer(consoleOrg.id);
      return (await signSessionToken(deps, signer, consoleOrg, session, issued)).accessToken;
    },
  };
}
