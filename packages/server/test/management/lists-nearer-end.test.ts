// The management lists read a page from its nearer end (storage/repos/list-window.ts): a page past
// the middle is read in the opposite order, skipping from the far end. These tests hold every list to
// exactly what the plain `ORDER BY … LIMIT per_page OFFSET page × per_page` returns, on both
// databases: rows sharing a millisecond (the id breaks the tie), another org's rows in the same
// tables, every filter, every page of several sizes and the pages past the end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createClient, listClients } from '../../src/domain/directory/clients.js';
import { listMembers } from '../../src/domain/directory/members.js';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { createServiceAccount, listServiceAccounts } from '../../src/domain/directory/service-accounts.js';
import { createUser, listUsers } from '../../src/domain/directory/users.js';
import { createConnection, pageOfConnections } from '../../src/domain/federation/connections.js';
import { createApiResource, listApiResources } from '../../src/domain/resources/api-resources.js';
import { createRole, listRoles } from '../../src/domain/resources/roles.js';
import { createInvitation, listInvitations } from '../../src/domain/teams/invitations.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { openTestRuntime } from '../support/runtime.js';
import { startServer, type TestServer } from '../support/server.js';
import { ownedOrg } from './support/console.js';

const ROWS = 61;
const START = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Ids in an order unrelated to insertion (so the tie-break by id is tested), deterministic. */
const idOf = (prefix: string, i: number) =>
  `${prefix}_${((i * 7919) % 1000).toString().padStart(4, '0')}n${i}`;
/** Runs of three rows share a millisecond. */
const at = (i: number) => START + Math.floor(i / 3);

type Db = TestServer['db'];

/** Copies the row `id` of `table` `count` times with `change(i)` applied. */
async function copies(
  db: Db,
  table: string,
  key: string,
  id: string,
  count: number,
  change: (i: number) => object,
) {
  const template = (
    await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} where ${sql.ref(key)} = ${id}`.execute(db)
  ).rows[0];
  assert.ok(template, `${table} template`);
  const rows = Array.from({ length: count }, (_, i) => ({ ...template, ...change(i) }));
  // biome-ignore lint/suspicious/noExplicitAny: rows copied from any table of the schema
  await (db as any).insertInto(table).values(rows).execute();
}

/** The pages worth comparing: all of them, and a few past the end. */
function pages(total: number, perPage: number): number[] {
  const last = Math.max(0, Math.ceil(total / perPage) - 1);
  return [...Array.from({ length: last + 1 }, (_, p) => p), last + 1, last + 3];
}

for (const database of storageSuite(
  "each list's SQL read from the nearer end (list-window.ts: reversed order, limit and offset; the users search's lower and LIKE) on each dialect",
)) {
  describe(`management lists: pages read from the nearer end on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let db: Db;
    const FAR = Date.now() + 30 * DAY;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      db = server.db;
      const deps = server.deps;
      acme = await ownedOrg(server, 'acme');
      const beta = await ownedOrg(server, 'beta');
      const consoleOrg = await findConsoleOrg(db);
      assert.ok(consoleOrg);
      for (const org of [acme, beta]) {
        const tag = org.id === acme.id ? 'a' : 'b';
        const { user } = await createUser(
          deps,
          org,
          { email: `template@${tag}.test`, password: null },
          SYSTEM,
        );
        await copies(db, 'users', 'id', user.id, ROWS, (i) => ({
          id: idOf(`usr_${tag}`, i),
          email: `${i % 2 ? 'Mia' : 'Noah'}.${i}@${tag}.test`,
          email_key: `${i % 2 ? 'mia' : 'noah'}.${i}@${tag}.test`,
          first_name: i % 5 === 0 ? 'Zoë' : null,
          created_at: at(i),
        }));
        const { client } = await createClient(
          deps,
          org,
          { name: 'Template', kind: 'confidential', redirectUris: ['https://app.test/cb'] },
          SYSTEM,
        );
        await copies(db, 'clients', 'id', client.id, ROWS, (i) => ({
          id: idOf(`cli_${tag}`, i),
          created_at: at(i),
        }));
        const resource = await createApiResource(
          deps,
          org,
          { identifier: 'https://api.test/template', name: 'Template' },
          SYSTEM,
        );
        await copies(db, 'api_resources', 'id', resource.id, ROWS, (i) => ({
          id: idOf(`api_${tag}`, i),
          identifier: `https://api.test/${i}`,
          created_at: at(i),
        }));
        const role = await createRole(deps, org, { name: 'template' }, SYSTEM);
        await copies(db, 'roles', 'id', role.id, ROWS, (i) => ({
          id: idOf(`rol_${tag}`, i),
          name: `role-${i}`,
          created_at: at(i),
        }));
        const { invitation } = await createInvitation(
          deps,
          org,
          { kind: 'user', email: `invitee@${tag}.test`, role: null, sendMail: false },
          SYSTEM,
        );
        await copies(db, 'invitations', 'id', invitation.id, ROWS, (i) => ({
          id: idOf(`inv_${tag}`, i),
          kind: i % 4 === 0 ? 'member' : 'user',
          role: i % 4 === 0 ? 'member' : null,
          email: `invitee.${i}@${tag}.test`,
          email_key: `invitee.${i}@${tag}.test`,
          token_hash: `hash-${tag}-${i}`,
          created_at: at(i),
          expires_at: i % 10 >= 3 && i % 10 <= 5 ? at(i) + 1 : FAR,
          accepted_at: i % 10 < 3 ? at(i) + 1 : null,
          revoked_at: i % 10 === 9 ? at(i) + 1 : null,
        }));
        const { account } = await createServiceAccount(
          deps,
          org,
          { name: 'Template', scopes: ['org:read'] },
          SYSTEM,
        );
        await copies(db, 'clients', 'id', account.id, ROWS, (i) => ({
          id: idOf(`cli_s${tag}`, i),
          created_at: at(i),
        }));
        await copies(db, 'service_accounts', 'client_id', account.id, ROWS, (i) => ({
          client_id: idOf(`cli_s${tag}`, i),
          created_at: at(i),
        }));
        const connection = await createConnection(
          deps,
          org,
          {
            type: 'oidc',
            name: 'Template',
            issuer: 'https://idp.test',
            clientId: 'rp',
            clientSecret: 'rp secret',
          },
          SYSTEM,
        );
        await copies(db, 'connections', 'id', connection.id, ROWS, (i) => ({
          id: idOf(`con_${tag}`, i),
          created_at: at(i),
        }));
        // Members: console users (emails sharing a prefix), each a member of the org.
        await copies(db, 'users', 'id', user.id, ROWS, (i) => ({
          id: idOf(`usr_m${tag}`, i),
          org_id: consoleOrg.id,
          email: `member.${i % 7}.${i}@${tag}.test`,
          email_key: `member.${i % 7}.${i}@${tag}.test`,
          created_at: at(i),
        }));
        await db
          .insertInto('memberships')
          .values(
            Array.from({ length: ROWS }, (_, i) => ({
              org_id: org.id,
              user_id: idOf(`usr_m${tag}`, i),
              role: i % 3 ? ('member' as const) : ('owner' as const),
              created_at: at(i),
            })),
          )
          .execute();
      }
    });
    after(async () => {
      if (!skip) await server.close();
    });

    type Page = { page: number; perPage: number };
    /** Compares a list with its plain OFFSET query on every page of sizes 1, 7 and 50. */
    async function compare(
      name: string,
      list: (p: Page) => Promise<{ ids: string[]; total: number }>,
      byOffset: (limit: number, offset: number) => Promise<string[]>,
    ) {
      const all = await byOffset(1_000_000, 0);
      assert.equal(all.length > 0, !name.endsWith('nobody'), `${name}: rows to page through`);
      for (const perPage of [1, 7, 50]) {
        for (const page of pages(all.length, perPage)) {
          const got = await list({ page, perPage });
          assert.deepEqual(
            got.ids,
            await byOffset(perPage, page * perPage),
            `${name}, per_page=${perPage}, page=${page}`,
          );
          assert.equal(got.total, all.length, `${name} total`);
        }
      }
    }

    const oldestFirst =
      (table: 'users' | 'clients' | 'api_resources' | 'roles' | 'connections', org: Org = acme) =>
      async (limit: number, offset: number) =>
        (
          await db
            .selectFrom(table)
            .select('id')
            .where('org_id', '=', org.id)
            .orderBy('created_at')
            .orderBy('id')
            .limit(limit)
            .offset(offset)
            .execute()
        ).map((r) => r.id);

    test('users, unfiltered and searched', { skip }, async () => {
      for (const q of [null, 'mia', 'ZOË', '.1', '@a.test', 'nobody']) {
        const like = (column: string) =>
          sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${`%${(q ?? '').toLowerCase()}%`}`;
        await compare(
          `users q=${q}`,
          async (p) => {
            const got = await listUsers(server.deps, acme, { q, ...p });
            return { ids: got.entries.map((u) => u.id), total: got.total };
          },
          q === null
            ? oldestFirst('users')
            : async (limit, offset) =>
                (
                  await db
                    .selectFrom('users')
                    .select('id')
                    .where('org_id', '=', acme.id)
                    .where((eb) => eb.or([like('email_key'), like('first_name'), like('last_name')]))
                    .orderBy('created_at')
                    .orderBy('id')
                    .limit(limit)
                    .offset(offset)
                    .execute()
                ).map((r) => r.id),
        );
      }
    });

    test('users and clients over many days, some deleted: the kept per-day counts equal the tables, every page its OFFSET', {
      skip,
    }, async () => {
      const gamma = await ownedOrg(server, 'gamma');
      const { user } = await createUser(
        server.deps,
        gamma,
        { email: 'template@g.test', password: null },
        SYSTEM,
      );
      const { client } = await createClient(
        server.deps,
        gamma,
        { name: 'Template', kind: 'confidential', redirectUris: ['https://app.test/cb'] },
        SYSTEM,
      );
      // Every other day of 46 (days between left empty), two or three rows a day in its first, eighth
      // and last hours: at its first and last millisecond, and pairs sharing one (the id breaks the
      // tie). One statement inserts them all.
      const created = (i: number) =>
        START + ((i * 7) % 23) * 2 * DAY + ([0, DAY - 1, 5, 5, 7 * HOUR + 3, 7 * HOUR + 3][i % 6] as number);
      await copies(db, 'users', 'id', user.id, ROWS, (i) => ({
        id: idOf('usr_g', i),
        email: `g.${i}@g.test`,
        email_key: `g.${i}@g.test`,
        created_at: created(i),
      }));
      await copies(db, 'clients', 'id', client.id, ROWS, (i) => ({
        id: idOf('cli_g', i),
        created_at: created(i),
      }));
      // One statement deletes several rows of several days, some a day's last.
      const gone = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 5 === 1);
      for (const [table, prefix] of [
        ['users', 'usr_g'],
        ['clients', 'cli_g'],
      ] as const) {
        const ids = gone.map((i) => idOf(prefix, i));
        await db.deleteFrom(table).where('id', 'in', ids).execute();
      }
      for (const list of ['users', 'clients'] as const) {
        for (const [span, ms] of [
          ['day', DAY],
          ['hour', HOUR],
        ] as const) {
          const kept = await db
            .selectFrom('list_counts')
            .select(['bucket', 'n'])
            .where('list', '=', list)
            .where('org_id', '=', gamma.id)
            .where('span', '=', span)
            .where('n', '>', 0)
            .orderBy('bucket')
            .execute();
          const counted = await sql<{ bucket: number; n: number }>`
            select created_at / ${sql.lit(ms)} as bucket, count(*) as n from ${sql.table(list)}
            where org_id = ${gamma.id} group by 1 order by 1`.execute(db);
          assert.deepEqual(
            kept.map((r) => [Number(r.bucket), Number(r.n)]),
            counted.rows.map((r) => [Number(r.bucket), Number(r.n)]),
            `${list}: kept counts per ${span}`,
          );
        }
        const counted = await sql<{ day: number }>`
          select distinct created_at / ${sql.lit(DAY)} as day from ${sql.table(list)}
          where org_id = ${gamma.id}`.execute(db);
        assert.equal(counted.rows.length, 24, `${list}: 23 days of copies and the template's`);
        await compare(
          `${list} over many days`,
          async (p) => {
            const got =
              list === 'users'
                ? await listUsers(server.deps, gamma, { q: null, ...p })
                : await listClients(server.deps, gamma, p);
            return { ids: got.entries.map((e) => e.id), total: got.total };
          },
          oldestFirst(list, gamma),
        );
      }
      // An org deleted with plain SQL takes its rows and their counts along.
      await db.deleteFrom('organizations').where('id', '=', gamma.id).execute();
      const left = await db
        .selectFrom('list_counts')
        .select('bucket')
        .where('org_id', '=', gamma.id)
        .execute();
      assert.deepEqual(left, []);
    });

    test('clients, resources, roles, connections', { skip }, async () => {
      const ids = (got: { entries: { id: string }[]; total: number }) => ({
        ids: got.entries.map((e) => e.id),
        total: got.total,
      });
      await compare(
        'clients',
        async (p) => ids(await listClients(server.deps, acme, p)),
        oldestFirst('clients'),
      );
      await compare(
        'resources',
        async (p) => ids(await listApiResources(server.deps, acme, p)),
        oldestFirst('api_resources'),
      );
      await compare('roles', async (p) => ids(await listRoles(server.deps, acme, p)), oldestFirst('roles'));
      await compare(
        'connections',
        async (p) => ids(await pageOfConnections(server.deps, acme, p)),
        oldestFirst('connections'),
      );
    });

    test('service accounts', { skip }, async () => {
      await compare(
        'service accounts',
        async (p) => {
          const got = await listServiceAccounts(server.deps, acme, p);
          return { ids: got.entries.map((a) => a.id), total: got.total };
        },
        async (limit, offset) =>
          (
            await db
              .selectFrom('service_accounts')
              .select('client_id')
              .where('org_id', '=', acme.id)
              .orderBy('created_at')
              .orderBy('client_id')
              .limit(limit)
              .offset(offset)
              .execute()
          ).map((r) => r.client_id),
      );
    });

    test('members, and again after a member changed address', { skip }, async () => {
      const byOffset = async (limit: number, offset: number) =>
        (
          await db
            .selectFrom('memberships as m')
            .innerJoin('users as u', 'u.id', 'm.user_id')
            .select('m.user_id')
            .where('m.org_id', '=', acme.id)
            .orderBy('u.email_key')
            .orderBy('m.user_id')
            .limit(limit)
            .offset(offset)
            .execute()
        ).map((r) => r.user_id);
      const members = async (p: Page) => {
        const got = await listMembers(server.deps, acme, p);
        return { ids: got.entries.map((m) => m.userId), total: got.total };
      };
      await compare('members', members, byOffset);
      // The member listed last takes an address that sorts first (migration 032 keeps the order).
      const last = (await byOffset(1_000_000, 0)).at(-1) as string;
      await db
        .updateTable('users')
        .set({ email: 'Aaron@a.test', email_key: 'aaron@a.test' })
        .where('id', '=', last)
        .execute();
      assert.equal((await byOffset(1, 0))[0], last);
      await compare('members after an address change', members, byOffset);
    });

    test('invitations, every filter', { skip }, async () => {
      for (const kind of [null, 'user', 'member'] as const) {
        for (const state of [null, 'pending', 'accepted', 'expired'] as const) {
          await compare(
            `invitations kind=${kind} state=${state}`,
            async (p) => {
              const got = await listInvitations(server.deps, acme, { kind, state, ...p });
              return { ids: got.entries.map((e) => e.id), total: got.total };
            },
            async (limit, offset) => {
              const now = Date.now();
              let q = db
                .selectFrom('invitations')
                .select('id')
                .where('org_id', '=', acme.id)
                .where('revoked_at', 'is', null);
              if (kind !== null) q = q.where('kind', '=', kind);
              if (state === 'accepted') q = q.where('accepted_at', 'is not', null);
              if (state === 'pending') q = q.where('accepted_at', 'is', null).where('expires_at', '>', now);
              if (state === 'expired') q = q.where('accepted_at', 'is', null).where('expires_at', '<=', now);
              const rows = await q
                .orderBy('created_at', 'desc')
                .orderBy('id', 'desc')
                .limit(limit)
                .offset(offset)
                .execute();
              return rows.map((r) => r.id);
            },
          );
        }
      }
    });
  });
}

describe('list counts after a TRUNCATE on postgres', async () => {
  // TRUNCATE fires no delete trigger; migration 031 empties the list's counts on its own trigger.
  const skip = await databaseSkip('postgres');
  test('a truncated users or clients table leaves its list empty, not counted', { skip }, async () => {
    const runtime = await openTestRuntime('postgres');
    try {
      const { deps } = runtime;
      const { org } = await createOrg(deps, {
        slug: 'cut',
        ownerEmail: 'owner@cut.test',
        ownerPassword: 'owner password 1',
      });
      for (const email of ['a@cut.test', 'b@cut.test']) {
        await createUser(deps, org, { email, password: null }, SYSTEM);
      }
      await createClient(deps, org, { name: 'Cut', kind: 'confidential', redirectUris: [] }, SYSTEM);
      const window = { page: 0, perPage: 50 };
      assert.equal((await listUsers(deps, org, { q: null, ...window })).total, 2);
      assert.equal((await listClients(deps, org, window)).total, 1);
      await sql`truncate users, clients cascade`.execute(runtime.db);
      const users = await listUsers(deps, org, { q: null, ...window });
      const clients = await listClients(deps, org, window);
      assert.deepEqual([users.total, users.entries], [0, []]);
      assert.deepEqual([clients.total, clients.entries], [0, []]);
      const left = await runtime.db.selectFrom('list_counts').select('list').execute();
      assert.deepEqual(left, []);
    } finally {
      await runtime.close();
    }
  });
});
