import { type AuditFilter, pageAuditEvents, type TimeRange } from '../../storage/repos/audit-events.js';
import type { AuditEventsTable } from '../../storage/schema.js';
import type { Deps } from '../context.js';
import type { Org } from '../types.js';
import type { AuditEntry, Verb } from './audit.js';
import { countEvents, ensureSealed, keysOf } from './event-counts.js';

/** A checked `GET /organizations/{org}/events` query (see http/api-schemas.ts). */
export interface EventQuery {
  perPage: number;
  /** Zero-based. */
  page: number;
  entity: string | null;
  verb: Verb | null;
  actorId: string | null;
  keyPrefix: string | null;
  /** Inclusive, epoch ms. */
  from: number | null;
  /** Exclusive, epoch ms. */
  to: number | null;
}

export interface EventPage {
  entries: AuditEntry[];
  /** Entries matching the filters, on every page. */
  total: number;
}

/** A stored entry in the spec's "Audit event entry" shape (previous/changes on updates only). */
export function toAuditEntry(row: AuditEventsTable): AuditEntry {
  const entry: AuditEntry = {
    id: row.id,
    key: row.key,
    entity: row.entity,
    verb: row.verb as Verb,
    at: new Date(Number(row.at)).toISOString(),
    actor:
      row.actor_kind === 'system' ? { kind: 'system' } : { kind: row.actor_kind, id: row.actor_id ?? '' },
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
  if (row.verb === 'updated') {
    if (row.previous !== null) entry.previous = JSON.parse(row.previous) as Record<string, unknown>;
    if (row.changes !== null) entry.changes = JSON.parse(row.changes) as Record<string, unknown>;
  }
  return entry;
}

/**
 * One page of the org's audit log, newest first (`at desc, id desc`), and how many entries match.
 * A page past the end is empty. Pages in the older half are read from the oldest end, so the
 * last page costs what the first does; the middle pages cost the most (OFFSET skips index entries).
 */
export async function listEvents(deps: Deps, org: Org, q: EventQuery): Promise<EventPage> {
  const sealed = await ensureSealed(deps.db, org.id);
  const keys = await keysOf(deps.db, org.id, sealed, q);
  if (keys !== null && keys.length === 0) return { entries: [], total: 0 };
  const filter: AuditFilter = { orgId: org.id, keys, actorId: q.actorId };
  const range: TimeRange = { from: q.from, to: q.to };
  const total = await countEvents(deps.db, filter, range, sealed);
  const offset = q.page * q.perPage;
  if (offset >= total) return { entries: [], total };
  const limit = Math.min(q.perPage, total - offset);
  const fromOldest = total - offset - limit < offset;
  const window = fromOldest
    ? { offset: total - offset - limit, limit, fromOldest }
    : { offset, limit: q.perPage, fromOldest };
  const rows = await pageAuditEvents(deps.db, filter, range, window);
  return { entries: rows.map(toAuditEntry), total };
}
