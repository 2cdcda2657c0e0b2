import { auditEntryJson } from '../audit/events.js';
import type { AuditEntry } from '../audit-entry.js';
import type { StreamEntry } from '../types.js';

/** An entry serialized once: its JSON (the spec's audit entry, as sent), and what the wrappers name. */
export interface SerializedEntry {
  id: string;
  key: string;
  /** Its time, epoch ms. */
  atMs: number;
  actor: AuditEntry['actor'];
  json: string;
  /** Its place in the streams' order. */
  order: number;
}

/**
 * A stored entry as streams send it: the spec's audit entry shape, exactly as the events list shows it
 * (`JSON.stringify` of the events list's entry), put together from the stored JSON text.
 */
export const serializeEntry = (stored: StreamEntry): SerializedEntry => ({
  id: stored.id,
  key: stored.key,
  atMs: stored.at,
  actor: stored.actor,
  json: auditEntryJson(stored),
  order: stored.txOrder,
});
