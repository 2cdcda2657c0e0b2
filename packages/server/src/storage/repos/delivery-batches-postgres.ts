import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { WebhooksTable } from '../schema.js';
import {
  type AttemptRow,
  type ClaimedDelivery,
  type ClaimOptions,
  claimStatement,
  type Settlement,
  settleStatement,
} from './webhook-deliveries.js';

export interface BatchResult {
  /** The settlements whose claim still held. */
  held: Set<string>;
  claimed: ClaimedDelivery[];
  /** The claimed deliveries' webhooks (deleted ones are absent). */
  targets: WebhooksTable[];
}

/**
 * PostgreSQL only: the worker's whole write in one statement, so one round trip instead of six
 * (BEGIN, settle, log, claim, read the webhooks, COMMIT) while the event loop is busy sending. A
 * statement is atomic on its own. Data-modifying CTEs all see the snapshot from before the
 * statement: the attempts are logged for the deliveries settled (their UPDATE holds their rows)
 * and for others that exist (a delivery deleted with its webhook does not; FOR KEY SHARE waits for
 * a deletion under way, so the log row never points at a row deleted meanwhile), and the claim
 * leaves out `exclude` (the caller passes what this statement settles: no row changes twice).
 * Settlements that disable a webhook do not come here (see settler.ts).
 */
export async function settleAndClaimOnPostgres(
  db: Db,
  settlements: readonly Settlement[],
  attempts: readonly AttemptRow[],
  claim: ClaimOptions | null,
): Promise<BatchResult> {
  const none = sql`select null::text as id where false`;
  const settled = settlements.length === 0 ? none : settleStatement(settlements);
  const logged =
    attempts.length === 0
      ? none
      : sql`insert into webhook_delivery_attempts
            (id, delivery_id, attempted_at, status_code, duration_ms, error)
          select a.* from (values ${sql.join(
            attempts.map(
              (a) =>
                sql`(${a.id}::text, ${a.delivery_id}::text, ${a.attempted_at}::bigint, ${a.status_code}::int, ${a.duration_ms}::int, ${a.error}::text)`,
            ),
          )}) as a (id, delivery_id, attempted_at, status_code, duration_ms, error)
          where a.delivery_id in (select id from settled)
            or exists (select 1 from webhook_deliveries d where d.id = a.delivery_id for key share)`;
  const claimed = claim
    ? claimStatement(db, 'postgres', claim)
    : sql`select null::text as id, null::text as webhook_id, null::text as event_id, null::text as body,
          null::int as attempts where false`;
  const { rows } = await sql<{ held: string[]; claimed: ClaimedDelivery[]; targets: WebhooksTable[] }>`
    with settled as (${settled}), logged as (${logged}), claimed as (${claimed})
    select
      (select coalesce(json_agg(id), '[]') from settled) as held,
      (select coalesce(json_agg(claimed), '[]') from claimed) as claimed,
      (select coalesce(json_agg(w), '[]') from webhooks w
        where w.id in (select webhook_id from claimed)) as targets`.execute(db);
  const row = rows[0] ?? { held: [], claimed: [], targets: [] };
  return { held: new Set(row.held), claimed: row.claimed, targets: row.targets };
}
