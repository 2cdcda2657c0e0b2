import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createUser } from '../../src/domain/directory/users.js';
import { type Org, SYSTEM, type User } from '../../src/domain/types.js';
import { setEmail } from '../../src/storage/repos/users.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownedOrg, ownerMemberStranger } from './support/console.js';

const PEOPLE: [string, string | null, string | null][] = [
  ['alan@search.test', 'Alan', 'Turing'],
  ['grace@search.test', 'Grace', 'HOPPER'],
  ['kat_j@search.test', null, 'Johnson'],
  ['percent@search.test', '100%', 'Sure'],
  ['back@search.test', 'Back\\slash', null],
  ['quote@search.test', "O'Brien", '"Nick" Name'],
  ['zoe@search.test', 'Zoë', 'Ångström'],
  ['jp@search.test', '太郎', '山田'],
  ['adah@search.test', 'Adah', 'Nguyen'],
];

const QUERIES = [
  'ring', // the middle of a last name
  'URIN',
  'hopper',
  'gRaCe',
  'search.test',
  'kat_j',
  't_j',
  '_',
  '0%',
  '%',
  'k\\s',
  "o'b",
  "'",
  '"nick"',
  '"',
  'ick" na',
  'oë',
  'ström',
  'ÅNGS', // SQLite lower-cases ASCII letters only: no user on SQLite, Zoë on PostgreSQL
  'ångs',
  '太郎',
  '山',
  'ur',
  'a',
  'nobody',
  'uye',
];

/**
 * What `q` finds by its rule (docs/decisions.md): the email's key, first or last name containing it in
 * any case, as each database's `lower()` and `like` read "any case": SQLite folds ASCII letters only,
 * PostgreSQL every letter.
 */
function expected(database: 'sqlite' | 'postgres', q: string, people = PEOPLE): string[] {
  const ascii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const fold = database === 'sqlite' ? ascii : (s: string) => s.toLowerCase();
  const needle = fold(q.toLowerCase());
  return people
    .filter((row) => row.some((v) => v !== null && fold(v).includes(needle)))
    .map(([email]) => email);
}

for (const database of storageSuite(
  'q through the trigram index of each database (FTS5 on SQLite, pg_trgm on PostgreSQL) and its bounded count',
)) {
  describe(`users: q finds what the rule says, through the index, on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let owner: string;
    const made = new Map<string, User>();

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      ({ acme, owner } = await ownerMemberStranger(server));
      for (const [email, firstName, lastName] of PEOPLE) {
        const { user } = await createUser(
          server.deps,
          acme,
          { email, password: null, firstName, lastName },
          SYSTEM,
        );
        made.set(email, user);
      }
      // Another org's users, matching every query acme's match: never in acme's answers.
      const gamma = await ownedOrg(server, 'gamma');
      for (const [email, firstName, lastName] of PEOPLE) {
        const other = email.replace('@search.test', '@gamma-search.test');
        await createUser(server.deps, gamma, { email: other, password: null, firstName, lastName }, SYSTEM);
      }
    });
    after(async () => {
      if (!skip) await server.close();
    });

    /** `emails` in the list's order: by creation, then by id (users made in one millisecond). */
    const listOrder = (emails: string[]) =>
      emails
        .map((email) => made.get(email) as User)
        .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((u) => u.email);

    const search = async (q: string, query = '') => {
      const path = `/organizations/acme/users?q=${encodeURIComponent(q)}${query}`;
      const res = await call(server, 'GET', path, owner);
      assert.equal(res.status, 200, q);
      return res;
    };
    const emails = async (q: string) => (await search(q)).body.map((u: { email: string }) => u.email);

    /**
     * On SQLite, the user ids of acme that migration 057's FTS table itself holds for a phrase (no check of
     * the rows' texts; the table holds every org's users).
     */
    const indexHolds = async (phrase: string) =>
      (
        await sql<{ user_id: string }>`select k.user_id from user_search
          join user_search_rows k on k.row = user_search.rowid
          where user_search match ${`"${phrase.replaceAll('"', '""')}"`} and k.org_id = ${acme.id}
          order by k.user_id`.execute(server.db)
      ).rows.map((r) => r.user_id);

    test('every search lists the users the rule names, oldest first, with no Link on one page', {
      skip,
    }, async () => {
      for (const q of QUERIES) {
        const res = await search(q);
        assert.deepEqual(
          res.body.map((u: { email: string }) => u.email),
          listOrder(expected(database, q)),
          q,
        );
        assert.equal(res.headers.get('link'), null, q);
      }
      // The org's owner is a console user: not in acme's list; gamma's users are gamma's only.
      assert.deepEqual(await emails('owner@acme'), []);
      assert.deepEqual(await emails('gamma-search'), []);
      // A NUL is refused before any search (the FTS5 phrase could not hold it, PostgreSQL's text neither).
      const nul = await call(server, 'GET', '/organizations/acme/users?q=ab%00cd', owner);
      assert.equal(nul.status, 400);
      assert.equal(nul.body.error, 'invalid_query');
    });

    test('a change of name or address and a delete are found at once (the index follows)', {
      skip,
    }, async () => {
      const grace = made.get('grace@search.test') as User;
      const renamed = await call(server, 'PATCH', `/organizations/acme/users/${grace.id}`, owner, {
        last_name: 'Brewster',
      });
      assert.equal(renamed.status, 200);
      assert.deepEqual(await emails('hopper'), []);
      assert.deepEqual(await emails('rewst'), ['grace@search.test']);

      await setEmail(server.db, grace.id, 'amazing.grace@found.test', Date.now());
      assert.deepEqual(await emails('grace@search'), []);
      assert.deepEqual(await emails('zing.g'), ['amazing.grace@found.test']);

      const alan = made.get('alan@search.test') as User;
      assert.equal((await call(server, 'DELETE', `/organizations/acme/users/${alan.id}`, owner)).status, 204);
      assert.deepEqual(await emails('turing'), []);
      assert.deepEqual(await emails('ur'), ['percent@search.test']);

      if (database !== 'sqlite') return;
      // The index's own rows, not only what the list shows after its check.
      assert.deepEqual(await indexHolds('hopper'), []);
      assert.deepEqual(await indexHolds('brewster'), [grace.id]);
      assert.deepEqual(await indexHolds('grace@search'), []);
      assert.deepEqual(await indexHolds('amazing.grace'), [grace.id]);
      assert.deepEqual(await indexHolds('turing'), []);
      const { n } = await server.db
        .selectFrom('user_search_rows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', alan.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(n), 0, 'the deleted user has no key');
      // VACUUM renumbers no key: the index still names the same users.
      await sql`vacuum`.execute(server.db);
      assert.deepEqual(await indexHolds('brewster'), [grace.id]);
      assert.deepEqual(await emails('rewst'), ['amazing.grace@found.test']);
    });

    test('SQLite: a search of three or more characters is read through the FTS5 index', {
      skip,
    }, async () => {
      if (database !== 'sqlite') return;
      const plan = await sql<{ detail: string }>`explain query plan
        select users.id from user_search cross join user_search_rows cross join users
        where user_search match '"ngu"' and user_search_rows.row = user_search.rowid
          and users.id = user_search_rows.user_id`.execute(server.db);
      assert.match(plan.rows.map((r) => r.detail).join('\n'), /VIRTUAL TABLE INDEX/);
      assert.deepEqual(await indexHolds('nguyen'), [made.get('adah@search.test')?.id]);
    });

    test('more than 10,000 matches: pages in order, next while a page follows, no last', {
      skip,
    }, async () => {
      // 10,100 users straight into the table (the list's triggers and the index's run as for any insert).
      const count = 10_100;
      const start = Date.now() + 60_000;
      const number = database === 'postgres' ? `lpad(g::text, 5, '0')` : `printf('%05d', g)`;
      const series =
        database === 'postgres'
          ? 'generate_series(0, 10099) as s(g)'
          : '(with recursive n(g) as (select 0 union all select g + 1 from n where g < 10099) select g from n) s';
      await sql
        .raw(
          `insert into users (id, org_id, email, email_key, first_name, last_name, provider, disabled,
             email_verified, created_at, updated_at, origin, phone_number_verified)
           select 'usr_bulk' || ${number}, '${acme.id}', 'Bulk.' || ${number} || '@many.test',
             'bulk.' || ${number} || '@many.test', 'Many', null, 'password', 0, 0, ${start} + g, ${start} + g,
             'owner', 0
           from ${series}`,
        )
        .execute(server.db);
      const idOf = (n: number) => `usr_bulk${String(n).padStart(5, '0')}`;
      const ids = (res: { body: { id: string }[] }) => res.body.map((u) => u.id);
      const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => idOf(from + i));
      const base = `${server.base}/organizations/acme/users`;
      const url = (page: number) => `<${base}?q=many.test&per_page=50&page=${page}>`;

      const first = await search('MANY.test');
      assert.deepEqual(ids(first), range(0, 50), 'any case');
      assert.equal(
        first.headers.get('link'),
        [
          `<${base}?q=MANY.test&per_page=50&page=0>; rel="first"`,
          `<${base}?q=MANY.test&per_page=50&page=1>; rel="next"`,
        ].join(', '),
      );
      const page = async (n: number) => search('many.test', `&page=${n}`);
      const p0 = await page(0);
      assert.equal(p0.headers.get('link'), [`${url(0)}; rel="first"`, `${url(1)}; rel="next"`].join(', '));
      const p200 = await page(200);
      assert.deepEqual(ids(p200), range(10_000, 10_050));
      assert.equal(
        p200.headers.get('link'),
        [`${url(0)}; rel="first"`, `${url(199)}; rel="prev"`, `${url(201)}; rel="next"`].join(', '),
      );
      const p201 = await page(201);
      assert.deepEqual(ids(p201), range(10_050, count));
      assert.equal(
        p201.headers.get('link'),
        [`${url(0)}; rel="first"`, `${url(200)}; rel="prev"`].join(', '),
      );
      const past = await page(202);
      assert.deepEqual(past.body, []);
      assert.equal(past.headers.get('link'), `${url(0)}; rel="first"`);

      // 10,000 matches are all counted: the last page is linked, and read from its end.
      const counted = await search('bulk.0', '&page=199');
      assert.deepEqual(ids(counted), range(9_950, 10_000));
      const countedUrl = (n: number) => `<${base}?q=bulk.0&per_page=50&page=${n}>`;
      assert.equal(
        counted.headers.get('link'),
        [
          `${countedUrl(0)}; rel="first"`,
          `${countedUrl(198)}; rel="prev"`,
          `${countedUrl(199)}; rel="last"`,
        ].join(', '),
      );
      // And the small searches before are still exact among them.
      assert.deepEqual(ids(await search('bulk.01234')), [idOf(1234)]);
    });
  });
}
