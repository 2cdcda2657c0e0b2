import { newEventId } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { insertAuditEvent } from '../../storage/repos/audit-events.js';
import type { AuditEntry, Verb } from '../audit-entry.js';
import { clock } from '../clock.js';
import type { Actor, AuditRecord, User } from '../types.js';
import { enqueueDeliveries } from '../webhooks/enqueue.js';
import { userSnapshot } from './snapshots.js';

export type { AuditEntry, Verb };

export interface AuditInput {
  orgId: string;
  entity: string;
  verb: Verb;
  actor: Actor;
  /** The resource as stored, camelCase, without secrets. */
  data: object;
  /** Updates only: the state before. */
  previous?: object;
  at?: number;
}

/** Fields whose value differs between two snapshots, with the new values. */
export function diff(previous: object, next: object): Record<string, unknown> {
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = after[key] ?? null;
  }
  return changes;
}

/**
 * Writes one audit entry, and the webhook deliveries it triggers (webhooks/enqueue.ts). Call it with
 * the transaction that made the change, so the change, its entry and its deliveries are stored
 * together or not at all.
 */
export async function recordAudit(tx: Handle, input: AuditInput): Promise<AuditEntry> {
  const { entry, record } = auditEntryOf(input);
  const { webhooks } = await insertAuditEvent(tx, record);
  await enqueueDeliveries(tx, input.orgId, entry, webhooks);
  return entry;
}

/** The entry recordAudit stores for `input` (its id drawn now), as the API shows it and as stored. */
export function auditEntryOf(input: AuditInput): { entry: AuditEntry; record: AuditRecord } {
  const at = input.at ?? clock.now();
  const entry: AuditEntry = {
    id: newEventId(at),
    key: `${input.entity}.${input.verb}`,
    entity: input.entity,
    verb: input.verb,
    at: new Date(at).toISOString(),
    actor: input.actor,
    data: { ...input.data },
  };
  if (input.verb === 'updated' && input.previous) {
    entry.previous = { ...input.previous };
    entry.changes = diff(input.previous, input.data);
  }
  const record: AuditRecord = {
    id: entry.id,
    orgId: input.orgId,
    key: entry.key,
    entity: entry.entity,
    verb: entry.verb,
    at,
    actor: input.actor,
    data: entry.data,
    previous: entry.previous ?? null,
    changes: entry.changes ?? null,
  };
  return { entry, record };
}

/** Whose change, in which org, and when (absent: now). */
export type AuditedBy = Pick<AuditInput, 'orgId' | 'actor' | 'at'>;

/** A user's change of their own account or what it holds (a password, a second factor, a passkey). */
export const byTheUser = (orgId: string, userId: string, at?: number): AuditedBy => ({
  orgId,
  actor: { kind: 'user', id: userId },
  at,
});

/** `<entity>.updated` with the item's snapshot as it is `after` the change and as it was `before`. */
export function recordUpdated(
  tx: Handle,
  by: AuditedBy,
  entity: string,
  snapshots: { before: object; after: object },
): Promise<AuditEntry> {
  return recordAudit(tx, {
    ...by,
    entity,
    verb: 'updated',
    data: snapshots.after,
    previous: snapshots.before,
  });
}

/** `user.updated` with the user's snapshot before and after, at the change's `updatedAt`. */
export function recordUserUpdated(tx: Handle, before: User, after: User, actor: Actor): Promise<AuditEntry> {
  const by = { orgId: before.orgId, actor, at: after.updatedAt };
  return recordUpdated(tx, by, 'user', { before: userSnapshot(before), after: userSnapshot(after) });
}
