import type { LogoutDelivery } from '../../domain/types.js';
import type { Dialect } from '../db.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { LogoutDeliveriesTable } from '../schema.js';
import { tableOf } from './keyed-rows.js';
import { orgClientRows } from './org-rows.js';
import { orgClientRowsDeleter } from './table-records.js';

const toDelivery = (r: LogoutDeliveriesTable): LogoutDelivery => ({
  id: r.id,
  orgId: r.org_id,
  clientId: r.client_id,
  url: r.url,
  sub: r.sub,
  sid: r.sid,
  status: r.status,
  attempts: r.attempts,
  // While claimed, next_attempt_at holds the lease: still the time it is (being) attempted.
  nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
  lastAttemptAt: r.last_attempt_at,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
  createdAt: r.created_at,
});

const deliveries = tableOf('logout_deliveries');

export interface NewLogoutDelivery {
  id: string;
  orgId: string;
  clientId: string;
  url: string;
  sub: string;
  sid: string | null;
  now: number;
}

/** Queues logout tokens to send, due at once. */
export async function insertLogoutDeliveries(
  store: Handle,
  rows: readonly NewLogoutDelivery[],
): Promise<void> {
  if (rows.length === 0) return;
  const db = opened(store);
  await db
    .insertInto('logout_deliveries')
    .values(
      rows.map((r) => ({
        id: r.id,
        org_id: r.orgId,
        client_id: r.clientId,
        url: r.url,
        sub: r.sub,
        sid: r.sid,
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: r.now,
        claim_token: null,
        last_attempt_at: null,
        last_status_code: null,
        last_error: null,
        created_at: r.now,
        updated_at: r.now,
      })),
    )
    .execute();
}

export interface LogoutClaim {
  limit: number;
  now: number;
  leaseUntil: number;
  token: string;
}

/**
 * Claims due logout deliveries for one worker until `leaseUntil` (SKIP LOCKED on PostgreSQL, one
 * atomic UPDATE on SQLite), as webhook deliveries are claimed: a worker that dies leaves claims that
 * expire, and another sends them again.
 */
export async function claimDueLogouts(
  store: Handle,
  dialect: Dialect,
  claim: LogoutClaim,
): Promise<LogoutDelivery[]> {
  const db = opened(store);
  const rows = await db
    .with('due', (qc) => {
      const due = qc
        .selectFrom('logout_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', claim.now)
        .orderBy('next_attempt_at')
        .limit(claim.limit);
      return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .updateTable('logout_deliveries')
    .set({ next_attempt_at: claim.leaseUntil, claim_token: claim.token })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
  return rows.map(toDelivery);
}

export interface LogoutSettlement {
  id: string;
  token: string;
  status: LogoutDelivery['status'];
  attempts: number;
  nextAttemptAt: number | null;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
}

/** Records an attempt's outcome, where this worker's claim still holds. */
export async function settleLogoutDelivery(store: Handle, s: LogoutSettlement): Promise<boolean> {
  const changed = await deliveries.updateWhere(
    store,
    {
      status: s.status,
      attempts: s.attempts,
      next_attempt_at: s.nextAttemptAt,
      claim_token: null,
      last_attempt_at: s.attemptedAt,
      last_status_code: s.statusCode,
      last_error: s.error,
      updated_at: s.attemptedAt,
    },
    { id: s.id, claim_token: s.token },
  );
  return changed > 0;
}

/** One page of a client's logout deliveries, newest first, and how many there are. */
export async function pageLogoutDeliveries(
  store: Handle,
  orgId: string,
  clientId: string,
  page: { offset: number; limit: number },
): Promise<{ entries: LogoutDelivery[]; total: number }> {
  const db = opened(store);
  const base = orgClientRows(db.selectFrom('logout_deliveries'), orgId, clientId);
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return { entries: rows.map(toDelivery), total: Number(count) };
}

/** Deletes an org's client's logout deliveries, sent or not (see deleteClientRow). */
export const deleteClientLogoutDeliveries = orgClientRowsDeleter('logout_deliveries');
