// The events list seeks to the sealed day (or the live tail) holding a page's first entry
// (domain/audit/events.ts, event-counts.ts countSegments). These tests hold it to exactly what the
// plain `ORDER BY at DESC, id DESC LIMIT … OFFSET page × per_page` over the whole index returns, on
// both databases: entries over many days (some empty, one busy), several per millisecond, on day
// boundaries, across the sealed/unsealed boundary, for every filter, and after new entries arrive.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { newEventId } from '../../src/crypto/random.js';
import type { Verb } from '../../src/domain/audit/audit.js';
import { SEAL_MARGIN_MS } from '../../src/domain/audit/event-counts.js';
import { type EventQuery, listEvents } from '../../src/domain/audit/events.js';
import { clock } from '../../src/domain/clock.js';
import type { Org } from '../../src/domain/types.js';
import * as dayTotals from '../../src/storage/migrations/033-audit-day-totals.js';
import { sealedUntil } from '../../src/storage/repos/audit-counts.js';
import type { AuditEventsTable } from '../../src/storage/schema.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { replaceAuditLog } from './support/audit-entries.js';
import { ownedOrg } from './support/console.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Day 0 of the seeded log (UTC midnight). */
const START = Date.UTC(2025, 0, 1);
const DAYS = 40;
const ENTITIES = ['user', 'tenant', 'client', 'session'];
const VERBS: Verb[] = ['created', 'updated', 'deleted', 'login'];
const ALICE = 'usr_alice0000000000000000';
const ROBOT = 'cli_robot0000000000000000';
const ACTORS = [ALICE, ROBOT, null, 'usr_bob000000000000000000'];

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function row(orgId: string, at: number, pick: () => number): AuditEventsTable {
  const entity = ENTITIES[Math.floor(pick() * ENTITIES.length)] as string;
  const verb = VERBS[Math.floor(pick() * VERBS.length)] as Verb;
  const actor = ACTORS[Math.floor(pick() * ACTORS.length)] ?? null;
  return {
    id: newEventId(at),
    org_id: orgId,
    key: `${entity}.${verb}`,
    entity,
    verb,
    at,
    actor_kind: actor === null ? 'system' : actor.startsWith('usr_') ? 'user' : 'client',
    actor_id: actor,
    data: '{}',
    previous: null,
    changes: null,
  };
}

/**
 * Entries of days `[firstDay, lastDay]`: an uneven number a day (none on some days before the tail, 150 on day 17),
 * in runs of 1–4 sharing one millisecond, and some exactly on a day's first and last millisecond.
 */
function seed(orgId: string, firstDay: number, lastDay: number, seedNo: number): AuditEventsTable[] {
  const pick = random(seedNo);
  const rows: AuditEventsTable[] = [];
  for (let d = firstDay; d <= lastDay; d++) {
    const count = d === 17 ? 150 : d % 9 === 4 && d < 38 ? 0 : Math.floor(pick() * 25);
    const day = START + d * DAY;
    let made = 0;
    if (count > 0 && d % 3 === 0) {
      rows.push(row(orgId, day, pick), row(orgId, day + DAY - 1, pick), row(orgId, day + DAY - 1, pick));
      made = 3;
    }
    while (made < count) {
      const at = day + Math.floor(pick() * DAY);
      const run = 1 + Math.floor(pick() * 4);
      for (let k = 0; k < run && made < count; k++, made++) rows.push(row(orgId, at, pick));
    }
  }
  return rows;
}

interface Filter {
  entity?: string;
  verb?: Verb;
  actorId?: string;
  keyPrefix?: string;
  from?: number;
  to?: number;
}

/** Each filter of the spec, alone and together, with ranges on and off day boundaries. */
const FILTERS: [string, Filter][] = [
  ['none', {}],
  ['entity=tenant', { entity: 'tenant' }],
  ['verb=login', { verb: 'login' }],
  ['actor_id=alice', { actorId: ALICE }],
  ['key_prefix=us', { keyPrefix: 'us' }],
  ['key_prefix=client.deleted', { keyPrefix: 'client.deleted' }],
  ['from day 10 05:00', { from: START + 10 * DAY + 5 * HOUR }],
  ['from day 10 00:00', { from: START + 10 * DAY }],
  ['to day 30 07:00', { to: START + 30 * DAY + 7 * HOUR }],
  ['to day 30 00:00', { to: START + 30 * DAY }],
  ['to in the unsealed tail', { to: START + 38 * DAY + 2 * HOUR }],
  ['from in the unsealed tail', { from: START + 38 * DAY + HOUR }],
  [
    'from day 12 03:00 to day 20 00:00:00.001',
    { from: START + 12 * DAY + 3 * HOUR, to: START + 20 * DAY + 1 },
  ],
  ['from+to inside day 17', { from: START + 17 * DAY + HOUR, to: START + 17 * DAY + 20 * HOUR }],
  [
    'entity+verb+from+to',
    { entity: 'user', verb: 'updated', from: START + 5 * DAY + HOUR, to: START + 33 * DAY },
  ],
  ['entity+actor_id+from', { entity: 'client', actorId: ROBOT, from: START + 9 * DAY }],
  ['verb+key_prefix', { verb: 'deleted', keyPrefix: 'tenant' }],
  ['nothing matches', { entity: 'organization' }],
];

function query(f: Filter, perPage: number, page: number): EventQuery {
  return {
    perPage,
    page,
    entity: f.entity ?? null,
    verb: f.verb ?? null,
    actorId: f.actorId ?? null,
    keyPrefix: f.keyPrefix ?? null,
    from: f.from ?? null,
    to: f.to ?? null,
  };
}

for (const database of storageSuite(
  'the day counts (audit_counts upsert, integer day division) and the seek over them must agree with OFFSET on each dialect',
)) {
  describe(`events list: seeking by day counts on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let beta: Org;
    const realNow = clock.now;
    /** Just after day 39 began: days 38 and 39 are not sealed yet (SEAL_MARGIN_MS). */
    const NOW = START + 39 * DAY + SEAL_MARGIN_MS / 2;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      acme = await ownedOrg(server, 'acme');
      beta = await ownedOrg(server, 'beta');
      // Another org's entries share the table and the days.
      await replaceAuditLog(server.db, beta.id, seed(beta.id, 0, DAYS - 1, 7));
      await replaceAuditLog(server.db, acme.id, seed(acme.id, 0, DAYS - 1, 1));
      clock.now = () => NOW;
    });
    after(async () => {
      clock.now = realNow;
      if (!skip) await server.close();
    });

    /**
     * Every id of the filter in the order of the plain `ORDER BY at DESC, id DESC` over the whole index
     * (what the list returned before seeking): its pages under OFFSET are this list's slices.
     */
    async function inListOrder(f: Filter): Promise<string[]> {
      let q = server.db.selectFrom('audit_events').select('id').where('org_id', '=', acme.id);
      if (f.entity !== undefined) q = q.where('entity', '=', f.entity);
      if (f.verb !== undefined) q = q.where('verb', '=', f.verb);
      if (f.actorId !== undefined) q = q.where('actor_id', '=', f.actorId);
      if (f.keyPrefix !== undefined) q = q.where('key', 'like', `${f.keyPrefix}%`);
      if (f.from !== undefined) q = q.where('at', '>=', f.from);
      if (f.to !== undefined) q = q.where('at', '<', f.to);
      const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').execute();
      return rows.map((r) => r.id);
    }

    /** Every filter: the listed ids and the total equal the OFFSET path's on the pages that matter. */
    async function compareAll(label: string) {
      let pagesChecked = 0;
      for (const [name, f] of FILTERS) {
        // Every id of the filter in the list's order (at, then id: no two alike), read once: OFFSET's
        // page p of size n is exactly its slice [p·n, (p+1)·n).
        const ordered = await inListOrder(f);
        const total = ordered.length;
        for (const perPage of [1, 7, 50, 100]) {
          const last = Math.max(0, Math.ceil(total / perPage) - 1);
          const pages = new Set<number>([0, 1, Math.floor(last / 2), last - 1, last, last + 1, last + 5]);
          // Every page for the larger sizes; for per_page 1 every 9th and the last few.
          for (let p = 0; p <= last; p += perPage === 1 ? 9 : 1) pages.add(p);
          for (const page of [...pages].filter((p) => p >= 0)) {
            const got = await listEvents(server.deps, acme, query(f, perPage, page));
            const want = ordered.slice(page * perPage, (page + 1) * perPage);
            assert.deepEqual(
              got.entries.map((e) => e.id),
              want,
              `${label}: ${name}, per_page=${perPage}, page=${page}`,
            );
            assert.equal(got.total, total, `${label}: ${name} total`);
            pagesChecked++;
          }
        }
      }
      return pagesChecked;
    }

    test('the seed has what the seek must get right', { skip }, async () => {
      const rows = await server.db
        .selectFrom('audit_events')
        .select(['at'])
        .where('org_id', '=', acme.id)
        .execute();
      const ats = rows.map((r) => Number(r.at));
      assert.ok(ats.length > 500, `${ats.length} entries`);
      assert.ok(new Set(ats).size < ats.length - 50, 'many entries share a millisecond');
      assert.ok(ats.includes(START + 3 * DAY) && ats.includes(START + 4 * DAY - 1), 'entries on day edges');
      await listEvents(server.deps, acme, query({}, 50, 0));
      // Sealed up to day 38: days 38 and 39 are the live tail.
      assert.equal(await sealedUntil(server.db, acme.id), START + 38 * DAY);
    });

    test('same ids as OFFSET on first, middle, last and past-the-end pages, for every filter', {
      skip,
    }, async () => {
      assert.ok((await compareAll('sealed to day 38')) > 1000);
    });

    test('same ids after new entries arrive in the live tail, and after more days are sealed', {
      skip,
    }, async () => {
      const db = server.db;
      const pick = random(3);
      const fresh = Array.from({ length: 40 }, (_, i) => row(acme.id, NOW + 1000 + (i >> 1), pick));
      await db.insertInto('audit_events').values(fresh).execute();
      await compareAll('new entries in the tail');

      // Two days later days 38–40 are sealed; day 41 is the tail, and gets entries too.
      clock.now = () => NOW + 2 * DAY + SEAL_MARGIN_MS;
      await db
        .insertInto('audit_events')
        .values([...seed(acme.id, 40, 40, 5), ...seed(acme.id, 41, 41, 6)])
        .execute();
      await listEvents(server.deps, acme, query({}, 50, 0));
      assert.equal(await sealedUntil(db, acme.id), START + 41 * DAY);
      await compareAll('sealed to day 41');
    });

    test('the day totals are the per-key counts summed, by any writer, and as migration 033 fills them', {
      skip,
    }, async () => {
      const db = server.db;
      await listEvents(server.deps, beta, query({}, 50, 0));
      const totals = () =>
        db
          .selectFrom('audit_day_totals')
          .select(['org_id', 'day', 'n'])
          .orderBy('org_id')
          .orderBy('day')
          .execute()
          .then((rows) => rows.map((r) => `${r.org_id} ${Number(r.day)} ${Number(r.n)}`));
      const summed = await db
        .selectFrom('audit_event_counts')
        .select(['org_id', 'day', (eb) => eb.fn.sum<number>('n').as('n')])
        .groupBy(['org_id', 'day'])
        .orderBy('org_id')
        .orderBy('day')
        .execute();
      const sealed = await totals();
      assert.deepEqual(
        sealed,
        summed.map((r) => `${r.org_id} ${Number(r.day)} ${Number(r.n)}`),
      );
      for (const org of [acme, beta]) {
        assert.ok(sealed.filter((r) => r.startsWith(`${org.id} `)).length > 25, `${org.slug} sealed days`);
      }
      // A database sealed before the migration: its totals come from the per-key counts.
      await dayTotals.down(db as never);
      await dayTotals.up(db as never);
      assert.deepEqual(await totals(), sealed);
      // Any writer's seal (here plain SQL, as a node of an older version would): inserted count rows
      // add to their day's total, rows another seal wrote first (skipped) add nothing.
      const day = START / DAY + 100;
      const counted = (key: string, n: number) => ({
        org_id: acme.id,
        day,
        key,
        entity: 'user',
        verb: 'created',
        n,
      });
      await db
        .insertInto('audit_event_counts')
        .values([counted('user.created', 5), counted('user.x', 7)])
        .execute();
      await db
        .insertInto('audit_event_counts')
        .values([counted('user.created', 5), counted('user.y', 1)])
        .onConflict((oc) => oc.columns(['org_id', 'day', 'key']).doNothing())
        .execute();
      assert.deepEqual(
        (await totals()).filter((r) => r.startsWith(`${acme.id} ${day} `)),
        [`${acme.id} ${day} 13`],
      );
      if (database === 'postgres') {
        // TRUNCATE fires no row trigger: the totals go with the counts.
        await sql`truncate audit_event_counts`.execute(db);
        assert.deepEqual(await totals(), []);
      }
    });
  });
}
