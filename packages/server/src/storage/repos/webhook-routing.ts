import { sql } from 'kysely';
import type { Db } from '../db.js';

/**
 * A cheap summary of an org's webhooks that changes whenever one is created, deleted or updated
 * (every write sets `updated_at`): count, newest `updated_at`, and a checksum of all `updated_at`s
 * (so changes within one millisecond, or under clock skew between nodes, are still seen). Null when
 * the org has no webhooks at all.
 */
export async function webhookFingerprint(db: Db, orgId: string): Promise<string | null> {
  const row = await db
    .selectFrom('webhooks')
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number | string | null>`max(updated_at)`.as('latest'),
      sql<number | string | null>`sum(updated_at % 1048573)`.as('checksum'),
    ])
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  if (!row || Number(row.n) === 0) return null;
  return `${row.n}:${row.latest}:${row.checksum}`;
}

/** The routing patterns of an org's active webhooks. */
export async function activeWebhookPatterns(
  db: Db,
  orgId: string,
): Promise<{ id: string; events: string[] }[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('org_id', '=', orgId)
    .where('active', '=', 1)
    .execute();
  return rows.map((r) => ({ id: r.id, events: parseEvents(r.events) }));
}

function parseEvents(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
