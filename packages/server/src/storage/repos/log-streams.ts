import { type QueryCreator, sql } from 'kysely';
import type { ClaimedLogStream, LogStream, LogStreamSettings, StreamCursor } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { dialectOf, opened } from '../opened.js';
import type { Database, LogStreamsTable } from '../schema.js';
import { settledBelow } from './audit-events.js';
import { columnMap, flag, json, orgRowColumns, timestampColumns } from './column-map.js';
import { tableOf } from './keyed-rows.js';
import { orgRowById, orgRowsOldestFirst } from './org-rows.js';

/** The cursor's two columns: both set, or neither. */
type CursorColumns = 'cursor_order' | 'cursor_id';
type PublicRow = Omit<LogStreamsTable, 'secret_sealed' | 'claim_token' | 'lease_until'>;

/** Every column but the sealed secret, the claim (only the stream worker reads those) and the cursor. */
const streamColumns = columnMap<Omit<PublicRow, CursorColumns>, Omit<LogStream, 'cursor'>>()({
  ...orgRowColumns,
  name: 'name',
  type: 'type',
  url: 'url',
  settings: ['settings', json<LogStreamSettings>()],
  active: ['active', flag],
  backfill_from: 'backfillFrom',
  next_attempt_at: 'nextAttemptAt',
  failures: 'failures',
  last_error: 'lastError',
  last_error_at: 'lastErrorAt',
  last_sent_at: 'lastSentAt',
  sent_entries: 'sentEntries',
  ...timestampColumns,
});

const PUBLIC_COLUMNS = [...streamColumns.names, 'cursor_order', 'cursor_id'] as const;

const toStream = (r: PublicRow): LogStream => ({
  ...streamColumns.toRecord(r),
  cursor: r.cursor_order === null || r.cursor_id === null ? null : { order: r.cursor_order, id: r.cursor_id },
});

const cursorColumns = (s: LogStream): Pick<LogStreamsTable, CursorColumns> => ({
  cursor_order: s.cursor?.order ?? null,
  cursor_id: s.cursor?.id ?? null,
});

export async function insertLogStream(store: Handle, s: LogStream, secretSealed: string): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('log_streams')
    .values({
      ...streamColumns.toRow(s),
      ...cursorColumns(s),
      secret_sealed: secretSealed,
      claim_token: null,
      lease_until: null,
    })
    .execute();
}

const streams = tableOf('log_streams');

/** How many streams an org has. */
export async function countLogStreams(store: Handle, orgId: string): Promise<number> {
  return streams.countWhere(store, { org_id: orgId });
}

/** An org's streams, oldest first. */
export async function listLogStreams(store: Handle, orgId: string): Promise<LogStream[]> {
  const db = opened(store);
  const rows = await orgRowsOldestFirst(db.selectFrom('log_streams').select(PUBLIC_COLUMNS), orgId).execute();
  return rows.map(toStream);
}

/** The org's stream (without its secret), or null. */
export async function findLogStream(store: Handle, orgId: string, id: string): Promise<LogStream | null> {
  const db = opened(store);
  const row = await orgRowById(
    db.selectFrom('log_streams').select(PUBLIC_COLUMNS),
    orgId,
    id,
  ).executeTakeFirst();
  return row ? toStream(row) : null;
}

/**
 * Stores what an owner may change (name, url, settings, active; the sealed secret when a new one is
 * given). Turning a stream on, or changing where it sends, makes it due at once with its failures
 * forgotten; its cursor stays where it is.
 */
export async function updateLogStreamRow(
  store: Handle,
  s: LogStream,
  secretSealed: string | null,
  retryNow: boolean,
): Promise<void> {
  const db = opened(store);
  await orgRowById(
    db.updateTable('log_streams').set({
      name: s.name,
      url: s.url,
      settings: JSON.stringify(s.settings),
      active: s.active ? 1 : 0,
      updated_at: s.updatedAt,
      ...(secretSealed === null ? {} : { secret_sealed: secretSealed }),
      ...(retryNow ? { next_attempt_at: s.updatedAt, failures: 0 } : {}),
    }),
    s.orgId,
    s.id,
  ).execute();
}

/** Deletes the stream if it belongs to `orgId`; returns what was deleted, or null. */
export async function deleteLogStream(store: Handle, orgId: string, id: string): Promise<LogStream | null> {
  const db = opened(store);
  const row = await orgRowById(db.deleteFrom('log_streams'), orgId, id)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
  return row ? toStream(row) : null;
}

export interface StreamClaim {
  limit: number;
  now: number;
  leaseUntil: number;
  token: string;
}

/**
 * Claims up to `limit` active streams that are due and held by no live claim, for one worker until
 * `leaseUntil`, in one statement (as webhook deliveries are claimed), among those with an entry to
 * send (the same rule as readEntriesAfter): PostgreSQL skips rows another
 * worker has locked; SQLite runs the UPDATE under its one write lock. A worker that dies keeps its
 * streams until the lease ends; then any worker takes them and sends from their cursor again.
 */
export async function claimDueStreams(store: Handle, claim: StreamClaim): Promise<ClaimedLogStream[]> {
  const db = opened(store);
  const postgres = dialectOf(store) === 'postgres';
  const due = (from: QueryCreator<Database>) =>
    from
      .selectFrom('log_streams')
      .select('id')
      .where('active', '=', 1)
      .where('next_attempt_at', '<=', claim.now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', claim.now)]))
      // Only streams with something to send: an idle stream costs one index probe per poll (a range of
      // audit_events_org_tx_order from the cursor; before the first batch, from the start: every stored
      // order is 0 or more and every id sorts after '').
      .where(
        sql<boolean>`exists (
          select 1 from audit_events e
          where e.org_id = log_streams.org_id
            and (e.tx_order, e.id) > (coalesce(log_streams.cursor_order, -1), coalesce(log_streams.cursor_id, ''))
            and e.at >= log_streams.backfill_from
            ${postgres ? sql`and e.tx_order < ${settledBelow()}` : sql``})`,
      )
      .orderBy('next_attempt_at')
      .limit(claim.limit);
  // A look first, which writes nothing (on SQLite, takes no write lock): most polls find nothing to do.
  if ((await due(db).execute()).length === 0) return [];
  const rows = await db
    .with('due', (qc) => {
      const picked = due(qc);
      return postgres ? picked.forUpdate().skipLocked() : picked;
    })
    .updateTable('log_streams')
    .set({ claim_token: claim.token, lease_until: claim.leaseUntil })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', claim.now)]))
    .returning([...PUBLIC_COLUMNS, 'secret_sealed'])
    .execute();
  return rows.map((r) => ({ ...toStream(r), sealedSecret: r.secret_sealed }));
}

export interface Advance {
  id: string;
  token: string;
  cursor: StreamCursor;
  sent: number;
  now: number;
  /** The claim's new end: a worker that keeps sending keeps the stream. */
  leaseUntil: number;
}

/**
 * Moves a stream's cursor past a batch its destination accepted, only while the worker's claim holds
 * (false otherwise: the lease ended and another worker may own the stream; it sends from the stored
 * cursor, so the batch is sent again: at least once), or once the stream is paused (it stops there,
 * and that batch is sent again when it resumes). Failures are forgotten.
 */
export async function advanceCursor(store: Handle, a: Advance): Promise<boolean> {
  const db = opened(store);
  const rows = await advanceStatement(db, {
    id: a.id,
    token: a.token,
    order: a.cursor.order,
    cursorId: a.cursor.id,
    sent: a.sent,
    now: a.now,
    leaseUntil: a.leaseUntil,
  });
  return rows.length > 0;
}

// Run after every batch a stream sends: built once, not by Kysely at each call.
const advanceStatement = compiledOnce(
  ['id', 'token', 'order', 'cursorId', 'sent', 'now', 'leaseUntil'],
  (db, v) =>
    db
      .updateTable('log_streams')
      .set((eb) => ({
        cursor_order: v.order,
        cursor_id: v.cursorId,
        sent_entries: eb('sent_entries', '+', v.sent),
        last_sent_at: v.now,
        failures: 0,
        lease_until: v.leaseUntil,
      }))
      .where('id', '=', v.id)
      .where('claim_token', '=', v.token)
      .where('active', '=', 1)
      .returning('id'),
);

export interface Failure {
  id: string;
  token: string;
  /** Why, safe to show: never a header, body or secret. */
  error: string;
  now: number;
  nextAttemptAt: number;
}

/** Records a failed attempt and lets the stream go until `nextAttemptAt` (only while the claim holds). */
export async function recordStreamFailure(store: Handle, f: Failure): Promise<boolean> {
  const db = opened(store);
  const result = await db
    .updateTable('log_streams')
    .set((eb) => ({
      failures: eb('failures', '+', 1),
      last_error: f.error,
      last_error_at: f.now,
      next_attempt_at: f.nextAttemptAt,
      claim_token: null,
      lease_until: null,
    }))
    .where('id', '=', f.id)
    .where('claim_token', '=', f.token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Lets a stream go (nothing more to send, or the worker stops): due again at `nextAttemptAt`. */
export async function releaseStream(
  store: Handle,
  r: { id: string; token: string; nextAttemptAt: number },
): Promise<void> {
  const db = opened(store);
  await db
    .updateTable('log_streams')
    .set({ claim_token: null, lease_until: null, next_attempt_at: r.nextAttemptAt })
    .where('id', '=', r.id)
    .where('claim_token', '=', r.token)
    .execute();
}
