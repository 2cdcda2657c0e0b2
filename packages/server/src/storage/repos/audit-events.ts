import { type SelectQueryBuilder, sql } from 'kysely';
import type { Actor, AuditRecord, LogStream, StreamCursor, StreamEntry } from '../../domain/types.js';
import { compiledOnceAsArrays } from '../compiled-once.js';
import type { Db } from '../db.js';
import type { Handle } from '../handle.js';
import { dialectOf, opened } from '../opened.js';
import type { AuditEventsTable, Database } from '../schema.js';
import { columnMap, json, jsonOrNull, orgRowColumns } from './column-map.js';
import { countRows } from './paged-rows.js';
import { webhookFingerprintSql } from './webhooks.js';

/** Which of an org's audit entries a list or count reads. */
export interface AuditFilter {
  orgId: string;
  /** Only entries with one of these keys; null: any key. Never empty (callers answer that themselves). */
  keys: readonly string[] | null;
  actorId: string | null;
}

/** A half-open time range `[from, to)` in epoch ms; null ends are open. */
export interface TimeRange {
  from: number | null;
  to: number | null;
}

/** Every column of an entry but who acted (two columns: actorOf) and its stream order. */
const entryColumns = columnMap<
  Omit<AuditEventsTable, 'actor_kind' | 'actor_id' | 'tx_order'>,
  Omit<AuditRecord, 'actor'>
>()({
  ...orgRowColumns,
  key: 'key',
  entity: 'entity',
  verb: 'verb',
  at: 'at',
  data: ['data', json<Record<string, unknown>>()],
  previous: ['previous', jsonOrNull<Record<string, unknown>>()],
  changes: ['changes', jsonOrNull<Record<string, unknown>>()],
});

/** Who acted, from `actor_kind` and `actor_id` (a system entry has none). */
const actorOf = (kind: AuditEventsTable['actor_kind'], id: string | null): Actor =>
  kind === 'system' ? { kind: 'system' } : { kind, id: id ?? '' };

const toRecord = (r: AuditEventsTable): AuditRecord => ({
  ...entryColumns.toRecord(r),
  actor: actorOf(r.actor_kind, r.actor_id),
});

/**
 * Stores one entry. Its `tx_order` (what log streams follow, migration 047) is the column's default on
 * PostgreSQL, the writing transaction's id; on SQLite the org's next number, read and written under
 * the database's one write lock, so the numbers follow the order the transactions commit in.
 * On PostgreSQL the same statement returns the org's webhook fingerprint (webhooks.ts), which the
 * entry's deliveries are routed by: `{ webhooks }`, null when the org has none. On SQLite (no
 * network to save) `webhooks` is undefined: the router reads it itself.
 */
export async function insertAuditEvent(store: Handle, e: AuditRecord): Promise<{ webhooks?: string | null }> {
  const db = opened(store);
  const sqlite = dialectOf(store) === 'sqlite';
  const txOrder = sqlite
    ? sql<number>`(select coalesce(max(tx_order), 0) + 1 from audit_events where org_id = ${e.orgId})`
    : undefined;
  const insert = db.insertInto('audit_events').values({
    ...entryColumns.toRow(e),
    actor_kind: e.actor.kind,
    actor_id: e.actor.kind === 'system' ? null : e.actor.id,
    ...(txOrder === undefined ? {} : { tx_order: txOrder }),
  });
  if (sqlite) {
    await insert.execute();
    return {};
  }
  const row = await insert.returning(webhookFingerprintSql(e.orgId).as('webhooks')).executeTakeFirstOrThrow();
  return { webhooks: row.webhooks };
}

type Query<O> = SelectQueryBuilder<Database, 'audit_events', O>;

function filtered<O>(query: Query<O>, filter: AuditFilter, ranges: readonly TimeRange[]): Query<O> {
  let q = query.where('org_id', '=', filter.orgId);
  if (filter.keys !== null) q = q.where('key', 'in', filter.keys);
  if (filter.actorId !== null) q = q.where('actor_id', '=', filter.actorId);
  const bounded = ranges.filter((r) => r.from !== null || r.to !== null);
  if (bounded.length === ranges.length && bounded.length > 0) {
    q = q.where((eb) =>
      eb.or(
        bounded.map((r) => {
          const parts = [];
          if (r.from !== null) parts.push(eb('at', '>=', r.from));
          if (r.to !== null) parts.push(eb('at', '<', r.to));
          return eb.and(parts);
        }),
      ),
    );
  }
  return q;
}

/** Entries matching `filter` inside any of `ranges` (an open range matches every time), counted. */
export async function countAuditEvents(store: Handle, filter: AuditFilter, ranges: readonly TimeRange[]) {
  const db = opened(store);
  if (ranges.length === 0) return 0;
  return countRows(filtered(db.selectFrom('audit_events'), filter, ranges));
}

export interface PageWindow {
  offset: number;
  limit: number;
  /** Read from the oldest end instead: `offset` then counts from the last entry. */
  fromOldest: boolean;
}

/**
 * One page of entries, newest first (`at desc, id desc`). The ids are picked first from the
 * (covering) index, then only those rows are read: OFFSET then skips index entries, not rows.
 */
export async function pageAuditEvents(
  store: Handle,
  filter: AuditFilter,
  range: TimeRange,
  window: PageWindow,
): Promise<AuditRecord[]> {
  const db = opened(store);
  const direction = window.fromOldest ? 'asc' : 'desc';
  const ids = filtered(db.selectFrom('audit_events'), filter, [range])
    .select('id')
    .orderBy('at', direction)
    .orderBy('id', direction)
    .limit(window.limit)
    .offset(window.offset);
  const rows = await db
    .selectFrom('audit_events')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toRecord);
}

/** The distinct keys of an org's entries since `since` (epoch ms). */
export async function keysSince(store: Handle, orgId: string, since: number) {
  const db = opened(store);
  return db
    .selectFrom('audit_events')
    .select(['key', 'entity', 'verb'])
    .distinct()
    .where('org_id', '=', orgId)
    .where('at', '>=', since)
    .execute();
}

export const DAY_MS = 86_400_000;

/**
 * The org's entries of `[from, until)` counted per UTC day (`at / 86400000`) and key: the rows
 * audit-counts.ts seals, as a query to insert from (not run here).
 */
export function dailyCounts(store: Handle, orgId: string, from: number, until: number) {
  const db = opened(store);
  return db
    .selectFrom('audit_events')
    .select([
      'org_id',
      sql<number>`at / ${sql.lit(DAY_MS)}`.as('day'),
      'key',
      'entity',
      'verb',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .where('org_id', '=', orgId)
    .where('at', '>=', from)
    .where('at', '<', until)
    .groupBy(['org_id', sql`at / ${sql.lit(DAY_MS)}`, 'key', 'entity', 'verb']);
}

export interface EntriesAfter {
  orgId: string;
  /** Read after this position; null: from the start of the `from` time on. */
  cursor: StreamCursor | null;
  /** Only entries at or after this time (epoch ms). */
  from: number;
  limit: number;
}

/**
 * The next entries of an org in the streams' order `(tx_order, id)`, after `cursor`, that no later
 * commit can precede: on PostgreSQL only those written by transactions older than the oldest one still
 * open (`pg_snapshot_xmin` of this statement's snapshot; every such transaction has ended, so its
 * entries are all visible now, or never will be); on SQLite, where writers take turns, every committed
 * one. So an entry whose transaction commits late is read when it commits, never passed over.
 */
export async function readEntriesAfter(store: Handle, q: EntriesAfter): Promise<StreamEntry[]> {
  const db = opened(store);
  const read = dialectOf(store) === 'postgres' ? settledEntriesAfter : entriesAfter;
  // Before the first entry: every stored order is 0 or more, and every id sorts after ''.
  const rows = await read(db, {
    orgId: q.orgId,
    from: q.from,
    order: q.cursor?.order ?? -1,
    id: q.cursor?.id ?? '',
    limit: q.limit,
  });
  return rows.map(toStreamEntry);
}

/**
 * An entry's entity and verb as a stream reads them: null when its key says them (`{entity}.{verb}`, the
 * verb without a dot, as every entry is written: domain/audit/audit.ts), else the stored value. A null
 * costs the driver nothing, and each string column of 500 rows was a fifth of what reading a batch cost
 * the worker's process on PostgreSQL (0.4 of ~2 ms of CPU for these two).
 */
const unlessKeyed = (column: 'entity' | 'verb') =>
  sql<
    string | null
  >`case when key = entity || '.' || verb and verb not like '%.%' then null else ${sql.ref(column)} end`.as(
    column,
  );

/** The columns a stream reads, in this order (its rows come as arrays). */
const STREAM_COLUMNS = [
  'id',
  'key',
  unlessKeyed('entity'),
  unlessKeyed('verb'),
  'at',
  'actor_kind',
  'actor_id',
  'data',
  'previous',
  'changes',
  'tx_order',
] as const;

/**
 * Served by `audit_events_org_tx_order` (org_id, tx_order, id): a range from the cursor, in index order,
 * `at` checked on the rows it reaches. The JSON columns come back as stored text: a stream sends them as
 * they are (domain/audit/events.ts auditEntryJson), never parsed and serialized again.
 */
const entriesAfterQuery = (db: Db, v: Readonly<Record<'orgId' | 'from' | 'order' | 'id' | 'limit', never>>) =>
  db
    .selectFrom('audit_events')
    .select(STREAM_COLUMNS)
    .where('org_id', '=', v.orgId)
    .where(sql<boolean>`(tx_order, id) > (${v.order}, ${v.id})`)
    .where('at', '>=', v.from);
// Rows as arrays: an object per row was most of the read's time (a batch is up to 500 rows).
const entriesAfter = compiledOnceAsArrays(['orgId', 'from', 'order', 'id', 'limit'], (db, v) =>
  entriesAfterQuery(db, v).orderBy('tx_order').orderBy('id').limit(v.limit),
);
const settledEntriesAfter = compiledOnceAsArrays(['orgId', 'from', 'order', 'id', 'limit'], (db, v) =>
  entriesAfterQuery(db, v)
    .where(sql<boolean>`tx_order < ${settledBelow()}`)
    .orderBy('tx_order')
    .orderBy('id')
    .limit(v.limit),
);

/** A row of STREAM_COLUMNS, as an array. */
function toStreamEntry(row: unknown[]): StreamEntry {
  const [id, key, entity, verb, at, actorKind, actorId, data, previous, changes, txOrder] = row as [
    string,
    string,
    string | null,
    string | null,
    number | string,
    AuditEventsTable['actor_kind'],
    string | null,
    string,
    string | null,
    string | null,
    number | string,
  ];
  // Null when the key says them: the verb is after the key's last dot (it has none of its own).
  const dot = key.lastIndexOf('.');
  return {
    id,
    key,
    entity: entity ?? key.slice(0, dot),
    verb: verb ?? key.slice(dot + 1),
    at: Number(at),
    actor: actorOf(actorKind, actorId),
    dataJson: data,
    previousJson: previous,
    changesJson: changes,
    txOrder: Number(txOrder),
  };
}

/** PostgreSQL: the oldest transaction id still running as this statement sees it, as a bigint. */
export const settledBelow = () => sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

export interface StreamLag {
  /** Entries after the cursor, counted up to `cap`. */
  behind: number;
  /** The next entry to send's time (epoch ms), or null when none waits. */
  nextAt: number | null;
}

/**
 * How far a stream is behind: its org's committed entries after its cursor (from its backfill time),
 * counted up to `cap`, and the next one's time.
 */
export async function streamLag(store: Handle, s: LogStream, cap: number): Promise<StreamLag> {
  const db = opened(store);
  const after = s.cursor ? sql`and (tx_order, id) > (${s.cursor.order}, ${s.cursor.id})` : sql``;
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from (
      select 1 from audit_events
      where org_id = ${s.orgId} and at >= ${s.backfillFrom} ${after}
      limit ${cap}
    ) as behind`.execute(db);
  let next = db
    .selectFrom('audit_events')
    .select('at')
    .where('org_id', '=', s.orgId)
    .where('at', '>=', s.backfillFrom);
  if (s.cursor) next = next.where(sql<boolean>`(tx_order, id) > (${s.cursor.order}, ${s.cursor.id})`);
  const first = await next.orderBy('tx_order').orderBy('id').limit(1).executeTakeFirst();
  return { behind: Number(rows[0]?.n ?? 0), nextAt: first ? Number(first.at) : null };
}
