import type { AuditEntry } from '../audit-entry.js';

/**
 * The JSON body of an event, built once when its deliveries are enqueued and sent byte for byte by
 * every attempt: `{"type": key, "timestamp": at, "data": entry}`.
 */
export function eventBody(entry: AuditEntry): string {
  return JSON.stringify({ type: entry.key, timestamp: entry.at, data: entry });
}
