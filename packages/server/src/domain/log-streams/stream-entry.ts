import { toAuditEntry } from '../audit/events.js';
import type { AuditEntry } from '../audit-entry.js';
import type { StreamEntry } from '../types.js';

/** A stored entry as streams send it: the spec's audit entry shape, exactly as the events list shows it. */
export const toStreamEntry = (stored: StreamEntry): AuditEntry => toAuditEntry(stored);
