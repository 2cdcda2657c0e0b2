import type { Handle } from '../../storage/handle.js';
import type { AuditEntry } from '../audit-entry.js';
import { type AuditedBy, recordAudit, recordUpdated } from './audit.js';

export type { AuditedBy };

/**
 * The entries one kind of an org's things gets when created, updated or deleted: its entity name
 * and its snapshot are declared once per module, and every entry of it is written from them.
 */
export interface AuditTrail<T> {
  created(tx: Handle, by: AuditedBy, item: T): Promise<AuditEntry>;
  /** With `previous` (the snapshot of `before`) and the changes between the two. */
  updated(tx: Handle, by: AuditedBy, before: T, after: T): Promise<AuditEntry>;
  deleted(tx: Handle, by: AuditedBy, item: T): Promise<AuditEntry>;
  /** Whether the two snapshots are the same: an update that changes nothing the entry shows. */
  unchanged(before: T, after: T): boolean;
}

export function auditTrail<T>(entity: string, snapshot: (item: T) => object): AuditTrail<T> {
  return {
    created: (tx, by, item) => recordAudit(tx, { ...by, entity, verb: 'created', data: snapshot(item) }),
    updated: (tx, by, before, after) =>
      recordUpdated(tx, by, entity, { before: snapshot(before), after: snapshot(after) }),
    deleted: (tx, by, item) => recordAudit(tx, { ...by, entity, verb: 'deleted', data: snapshot(item) }),
    unchanged: (before, after) => JSON.stringify(snapshot(before)) === JSON.stringify(snapshot(after)),
  };
}

/**
 * `<entity>.updated` for a change of a list the item holds beside its own fields (a client's
 * permissions, a user's roles): its snapshot with `field` as it is after, and as it was before.
 */
export function heldListUpdated(
  tx: Handle,
  by: AuditedBy,
  entity: string,
  snapshot: object,
  field: string,
  lists: { before: unknown; after: unknown },
): Promise<AuditEntry> {
  return recordUpdated(tx, by, entity, {
    before: { ...snapshot, [field]: lists.before },
    after: { ...snapshot, [field]: lists.after },
  });
}
