import type { Actor } from './types.js';

export type Verb = 'created' | 'updated' | 'deleted' | 'login';

/** An audit event entry exactly as the spec's "Audit event entry" table shapes it. */
export interface AuditEntry {
  id: string;
  key: string;
  entity: string;
  verb: Verb;
  at: string;
  actor: Actor;
  data: Record<string, unknown>;
  previous?: Record<string, unknown>;
  changes?: Record<string, unknown>;
}
