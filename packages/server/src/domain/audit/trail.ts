import type { Handle } from '../../storage/handle.js';
import type { AuditEntry } from '../audit-entry.js';
import { type AuditInput, recordAudit } from './audit.js';

/** Whose change, in which org, and when (absent: now). */
export type AuditedBy = Pick<AuditInput, 'orgId' | 'actor' | 'at'>;

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
      recordAudit(tx, {
        ...by,
        entity,
        verb: 'updated',
        data: snapshot(after),
        previous: snapshot(before),
      }),
    deleted: (tx, by, item) => recordAudit(tx, { ...by, entity, verb: 'deleted', data: snapshot(item) }),
    unchanged: (before, after) => JSON.stringify(snapshot(before)) === JSON.stringify(snapshot(after)),
  };
}
