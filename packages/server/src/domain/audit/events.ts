import { type AuditFilter, pageAuditEvents, type TimeRange } from '../../storage/repos/audit-events.js';
import { isoTime } from '../iso-time.js';
import type { AuditRecord, Org } from '../types.js';
import type { AuditEntry, Verb } from './audit.js';
import type { AuditDeps } from './deps.js';
import { countSegments, ensureSealed, keysOf, type Segment } from './event-counts.js';

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

/** Updates carry `previous` and `changes`; other entries never do. */
const showsChanges = (verb: string) => verb === 'updated';

/** A stored entry in the spec's "Audit event entry" shape (previous/changes on updates only). */
export function toAuditEntry(stored: AuditRecord): AuditEntry {
  const entry: AuditEntry = {
    id: stored.id,
    key: stored.key,
    entity: stored.entity,
    verb: stored.verb as Verb,
    at: new Date(stored.at).toISOString(),
    actor: stored.actor,
    data: stored.data,
  };
  if (showsChanges(stored.verb)) {
    if (stored.previous !== null) entry.previous = stored.previous;
    if (stored.changes !== null) entry.changes = stored.changes;
  }
  return entry;
}

/** A stored entry whose JSON fields are still the stored text (`JSON.stringify`'s output). */
export interface StoredEntryText extends Omit<AuditRecord, 'orgId' | 'data' | 'previous' | 'changes'> {
  dataJson: string;
  previousJson: string | null;
  changesJson: string | null;
}

const str = (value: string) => JSON.stringify(value);

/** Names serialized so far (keys, entities, verbs, actor kinds: a few dozen), up to a bound. */
const quotedNames = new Map<string, string>();

/** `str` of a name an entry shares with many others, serialized once. */
function quotedName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = str(name);
    if (quotedNames.size >= 1000) quotedNames.clear();
    quotedNames.set(name, quoted);
  }
  return quoted;
}

/**
 * `JSON.stringify(toAuditEntry(stored))`, character for character, without parsing the stored JSON and
 * serializing it again: the fields in toAuditEntry's order, the stored text put in as it is (it was
 * written by `JSON.stringify`, whose output parses and serializes back to itself). What log streams
 * send; the test of this module holds the two equal.
 */
export function auditEntryJson(stored: StoredEntryText): string {
  const actor =
    stored.actor.kind === 'system'
      ? '{"kind":"system"}'
      : `{"kind":${quotedName(stored.actor.kind)},"id":${str(stored.actor.id)}}`;
  let json =
    `{"id":${str(stored.id)},"key":${quotedName(stored.key)},"entity":${quotedName(stored.entity)},"verb":${quotedName(stored.verb)},` +
    `"at":"${isoTime(stored.at)}","actor":${actor},"data":${stored.dataJson}`;
  if (showsChanges(stored.verb)) {
    if (stored.previousJson !== null) json += `,"previous":${stored.previousJson}`;
    if (stored.changesJson !== null) json += `,"changes":${stored.changesJson}`;
  }
  return `${json}}`;
}

/**
 * One page of the org's audit log, newest first (`at desc, id desc`), and how many entries match.
 * A page past the end is empty. The per-day counts (event-counts.ts countSegments) tell which
 * segment (a sealed day, or the live tail) holds the page's first entry: the page is read from
 * there, skipping at most half of that segment, instead of skipping `page × per_page` entries of
 * the whole index. Pages are exactly what `OFFSET page × per_page` over the whole list gives.
 */
export async function listEvents(deps: AuditDeps, org: Org, q: EventQuery): Promise<EventPage> {
  const sealed = await ensureSealed(deps.store, org.id);
  const keys = await keysOf(deps.store, org.id, sealed, q);
  if (keys !== null && keys.length === 0) return { entries: [], total: 0 };
  const filter: AuditFilter = { orgId: org.id, keys, actorId: q.actorId };
  const range: TimeRange = { from: q.from, to: q.to };
  const offset = q.page * q.perPage;
  // The first page needs no seeking: it is read beside the count rather than after it.
  const [segments, first] = await Promise.all([
    countSegments(deps.store, filter, range, sealed),
    offset === 0
      ? pageAuditEvents(deps.store, filter, range, { offset: 0, limit: q.perPage, fromOldest: false })
      : null,
  ]);
  const total = segments.reduce((sum, s) => sum + s.n, 0);
  if (offset >= total) return { entries: [], total };
  const limit = Math.min(q.perPage, total - offset);
  const rows = first ?? (await readWindow(deps, filter, range, segments, offset, limit));
  return { entries: rows.slice(0, limit).map(toAuditEntry), total };
}

/**
 * The entries at positions `[offset, offset + limit)` of the list (all of which exist): found in
 * the segment holding `offset`, read from that segment's nearer end (so the last page skips
 * nothing); when the page runs past the segment's oldest entry, the rest are the newest entries
 * older than the segment (a second query that skips nothing).
 */
async function readWindow(
  deps: AuditDeps,
  filter: AuditFilter,
  range: TimeRange,
  segments: readonly Segment[],
  offset: number,
  limit: number,
): Promise<AuditRecord[]> {
  let before = 0;
  const segment = segments.find((s) => {
    if (offset < before + s.n) return true;
    before += s.n;
    return false;
  });
  if (segment === undefined) return [];
  const skip = offset - before;
  const inSegment = Math.min(limit, segment.n - skip);
  const fromOldest = segment.n - skip - inSegment < skip;
  const rows = await pageAuditEvents(
    deps.store,
    filter,
    { from: segment.from, to: segment.to },
    fromOldest
      ? { offset: segment.n - skip - inSegment, limit: inSegment, fromOldest }
      : { offset: skip, limit: inSegment, fromOldest },
  );
  if (inSegment === limit || segment.from === null) return rows;
  const older = await pageAuditEvents(
    deps.store,
    filter,
    { from: range.from, to: segment.from },
    { offset: 0, limit: limit - inSegment, fromOldest: false },
  );
  return [...rows, ...older];
}
