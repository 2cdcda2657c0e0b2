import { newEventId } from '../../../src/crypto/random.js';
import type { Verb } from '../../../src/domain/audit/audit.js';
import type { Db } from '../../../src/storage/db.js';
import type { AuditEventsTable } from '../../../src/storage/schema.js';

/** 2024-03-01T00:00:00.000Z: the first seeded entry; one entry per hour after it. */
export const SEED_START = Date.UTC(2024, 2, 1);
const HOUR = 3_600_000;
const ENTITIES = ['tenant', 'user', 'client', 'webhook', 'membership'];
const VERBS: Verb[] = ['created', 'updated', 'deleted', 'login'];
export const ALICE = 'usr_alice0000000000000000';
export const ROBOT = 'cli_robot0000000000000000';

/**
 * `count` stored audit rows for `orgId`, one an hour from SEED_START (the last two share a time,
 * so the id breaks the tie): entities, verbs and actors (Alice, the robot client, the system)
 * cycle, so every filter selects a known, uneven share.
 */
export function seedRows(orgId: string, count: number): AuditEventsTable[] {
  return Array.from({ length: count }, (_, i) => {
    const at = SEED_START + Math.min(i, count - 2) * HOUR;
    const entity = ENTITIES[i % ENTITIES.length] as string;
    const verb = VERBS[i % VERBS.length] as Verb;
    const actor = i % 3 === 0 ? ALICE : i % 3 === 1 ? ROBOT : null;
    const data = JSON.stringify({ id: `${entity}_${i}`, n: i });
    return {
      id: newEventId(at),
      org_id: orgId,
      key: `${entity}.${verb}`,
      entity,
      verb,
      at,
      actor_kind: actor === null ? 'system' : actor.startsWith('usr_') ? 'user' : 'client',
      actor_id: actor,
      data,
      previous: verb === 'updated' ? JSON.stringify({ id: `${entity}_${i}`, n: -1 }) : null,
      changes: verb === 'updated' ? JSON.stringify({ n: i }) : null,
    };
  });
}

/** Replaces every audit entry of the org with `rows`. */
export async function replaceAuditLog(db: Db, orgId: string, rows: AuditEventsTable[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('audit_events').where('org_id', '=', orgId).execute();
    for (let i = 0; i < rows.length; i += 100) {
      await trx
        .insertInto('audit_events')
        .values(rows.slice(i, i + 100))
        .execute();
    }
  });
}

/** The spec's entry shape of a stored row, as the list must return it. */
export function entryOf(row: AuditEventsTable) {
  return {
    id: row.id,
    key: row.key,
    entity: row.entity,
    verb: row.verb,
    at: new Date(row.at).toISOString(),
    actor: row.actor_id === null ? { kind: 'system' } : { kind: row.actor_kind, id: row.actor_id },
    data: JSON.parse(row.data),
    ...(row.previous === null ? {} : { previous: JSON.parse(row.previous) }),
    ...(row.changes === null ? {} : { changes: JSON.parse(row.changes) }),
  };
}

/** Rows newest first: `at` desc, then id desc. */
export function newestFirst(rows: AuditEventsTable[]): AuditEventsTable[] {
  return [...rows].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}
