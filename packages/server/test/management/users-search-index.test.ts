import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createUser } from '../../src/domain/directory/users.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import type { Db } from '../../src/storage/db.js';
import * as searchRows from '../../src/storage/migrations/058-user-search-rows.js';
import * as searchByOrg from '../../src/storage/migrations/061-user-search-by-org.js';
import { containing, listOrgUsers } from '../../src/storage/repos/users.js';
import { databaseSkip } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { ownedOrg } from './support/console.js';

const NAMES: [string, string | null, string | null][] = [
  ['alan@search.test', 'Alan', 'Turing'],
  ['grace@search.test', 'Grace', 'HOPPER'],
  ['kat_j@search.test', null, 'Johnson'],
  ['edsger@search.test', 'Edsger', 'Dijkstra'],
  ['ada@search.test', 'Ada', 'Lovelace'],
  ['percent@search.test', '100%', 'Sure'],
  ['back@search.test', 'Back\\slash', null],
  ['zoe@search.test', 'Zoë', 'Ångström'],
  ['barbara@search.test', 'Barbara', 'Liskov'],
  ['adah@search.test', 'Adah', 'Nguyen'],
];

/** What `q` finds by its rule (docs/decisions.md): email, first or last name containing it, any case. */
function expected(q: string): string[] {
  const needle = q.toLowerCase();
  return NAMES.filter((row) => row.some((v) => v?.toLowerCase().includes(needle))).map(([email]) => email);
}

const QUERIES = [
  'ada',
  'ADA',
  'hopper',
  'gRaCe',
  'search.test',
  'kat_j',
  '0%',
  'k\\s',
  'ångs',
  'zoë',
  'ur',
  'a',
  'nobody',
  'lisk',
];

/**
 * Migrations 034, 058 and 061 on PostgreSQL: `q` on the users list may be answered from trigram indexes, and
 * what it finds must not change with them. Each search runs as the planner likes (a handful of
 * rows: a scan) and again with scans turned off, where a search of three or more characters goes
 * through the indexes (the plan says so); both must return the users the rule names, in order.
 */
describe('users: q through the trigram indexes on postgres', async () => {
  const skip = await databaseSkip('postgres');
  let server: TestServer;
  let org: Org;
  let db: Db;

  before(async () => {
    if (skip) return;
    server = await startServer({ database: 'postgres', webhooks: false });
    db = server.db;
    org = await ownedOrg(server, 'searchco');
    for (const [email, first, last] of NAMES) {
      await createUser(server.deps, org, { email, password: null, firstName: first, lastName: last }, SYSTEM);
    }
  });
  after(async () => {
    if (!skip) await server.close();
  });

  const indexes = async () =>
    (
      await sql<{ name: string }>`
        select indexname as name from pg_indexes
        where schemaname = current_schema() and tablename in ('users', 'user_search_rows')
          and indexname like '%search%' and indexname not in ('user_search_rows_pkey', 'user_search_rows_order')
        order by indexname`.execute(db)
    ).rows.map((r) => r.name);

  /**
   * The emails `q` lists, and the emails and plan of the same test on the search rows: as planned, or
   * with the trigram indexes the only way in (no sequential scan, the order index dropped, and the
   * org compared as `org_id || ''`, which no index holds, so that the org's key alone cannot be the
   * way in: at a dozen users, reading the org's rows by its key and testing each is the cheapest
   * plan). All inside a transaction that is rolled back.
   */
  const search = async (q: string, through: 'plan' | 'trigrams') => {
    const rollback = new Error('rolled back');
    let found: { emails: string[]; total: number; rows: string[]; plan: string } | undefined;
    await db
      .transaction()
      .execute(async (trx) => {
        if (through === 'trigrams') {
          await sql`set local enable_seqscan = off`.execute(trx);
          await sql`drop index user_search_rows_order`.execute(trx);
        }
        const { users, total } = await listOrgUsers(trx, org.id, { q, limit: 100, offset: 0 });
        const pattern = containing(q);
        const orgOf = through === 'trigrams' ? sql`r.org_id || ''` : sql`r.org_id`;
        const matching = sql`${orgOf} = ${org.id} and (r.email like ${pattern} escape '\\'
            or r.first_name like ${pattern} escape '\\' or r.last_name like ${pattern} escape '\\')`;
        const rows = await sql<{ email: string }>`select u.email from user_search_rows as r
          join users as u on u.id = r.user_id where ${matching} order by r.created_at, r.user_id`.execute(
          trx,
        );
        const plan = await sql<{ 'QUERY PLAN': string }>`explain select count(*) from user_search_rows as r
          where ${matching}`.execute(trx);
        found = {
          emails: users.map((u) => u.email),
          total,
          rows: rows.rows.map((r) => r.email),
          plan: plan.rows.map((r) => r['QUERY PLAN']).join('\n'),
        };
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
    assert.ok(found);
    return found;
  };

  test('the migrations made three indexes by org on the search rows, and down and up move them back and again', {
    skip,
  }, async () => {
    const byOrg = [
      'user_search_rows_org_email',
      'user_search_rows_org_first_name',
      'user_search_rows_org_last_name',
    ];
    const onRows = ['user_search_rows_email', 'user_search_rows_first_name', 'user_search_rows_last_name'];
    assert.deepEqual(await indexes(), byOrg);
    await searchByOrg.down(db as never);
    assert.deepEqual(await indexes(), onRows);
    await searchRows.down(db as never);
    assert.deepEqual(await indexes(), [
      'users_search_email',
      'users_search_first_name',
      'users_search_last_name',
    ]);
    await searchRows.up(db as never);
    assert.deepEqual(await indexes(), onRows);
    await searchByOrg.up(db as never);
    assert.deepEqual(await indexes(), byOrg);
    const { n } = await db
      .selectFrom('user_search_rows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', org.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n), NAMES.length, 'made again from the users');
  });

  test('every search finds the same users with the indexes as by scanning', { skip }, async () => {
    for (const q of QUERIES) {
      const want = expected(q);
      const scanned = await search(q, 'plan');
      const indexed = await search(q, 'trigrams');
      assert.deepEqual(scanned.emails, want, `${q}, as planned`);
      assert.equal(scanned.total, want.length, `${q}, as planned: total`);
      assert.deepEqual(indexed.emails, want, `${q}, with scans off`);
      assert.equal(indexed.total, want.length, `${q}, with scans off: total`);
      assert.deepEqual(scanned.rows, want, `${q}, the search rows as planned`);
      assert.deepEqual(indexed.rows, want, `${q}, the search rows through the trigrams`);
      // Trigrams are taken from runs of letters and digits: `k\s` or `0%` gives none to look up.
      if (/[a-z]{3}/i.test(q))
        assert.match(indexed.plan, /user_search_rows_org_email/, `${q}: ${indexed.plan}`);
    }
  });
});
