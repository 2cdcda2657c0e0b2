import { newSortableId } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { deleteDeliveriesOfWebhook, insertDeliveries } from '../../storage/repos/webhook-deliveries.js';
import type { AuditEntry } from '../audit-entry.js';
import { clock } from '../clock.js';
import { eventBody } from './event-body.js';
import { announceDeliveries } from './outbox-signal.js';
import { matchingWebhooks } from './routing-cache.js';

/**
 * The outbox half of recordAudit: with the transaction that wrote the audit entry, one pending
 * delivery per active webhook of the org whose patterns match the entry's key (`fingerprint`: the
 * org's webhook fingerprint the entry's INSERT returned, if it did). The change, its
 * entry and its deliveries commit together or not at all. On PostgreSQL a NOTIFY (sent at commit)
 * wakes the workers of every node.
 */
export async function enqueueDeliveries(
  db: Handle,
  orgId: string,
  entry: AuditEntry,
  fingerprint?: string | null,
): Promise<number> {
  if (entry.key === 'webhook.deleted' && typeof entry.data.id === 'string') {
    await deleteDeliveriesOfWebhook(db, entry.data.id);
  }
  const targets = await matchingWebhooks(db, orgId, entry.key, fingerprint);
  if (targets.length === 0) return 0;
  const body = eventBody(entry);
  const now = clock.now();
  await insertDeliveries(
    db,
    targets.map((webhookId) => ({
      id: newSortableId('wdl', now),
      orgId,
      webhookId,
      eventId: entry.id,
      eventKey: entry.key,
      body,
      status: 'pending' as const,
      attempts: 0,
      nextAttemptAt: now,
      claimToken: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await announceDeliveries(db);
  return targets.length;
}
