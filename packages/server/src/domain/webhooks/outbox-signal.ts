import { EventEmitter } from 'node:events';
import type { Handle } from '../../storage/handle.js';
import { notifyOnCommit } from '../../storage/notify.js';

/**
 * Tells this process's delivery worker that deliveries were just enqueued, so it need not wait for
 * its next poll. Only a hint: the rows may not be committed yet (the worker then finds them on a
 * later look); other processes learn of them by polling, or on PostgreSQL by NOTIFY at commit.
 */
const signal = new EventEmitter();
signal.setMaxListeners(0);

export const OUTBOX_CHANNEL = 'tessera_webhook_outbox';
/** Logout tokens queued (domain/sessions/logout-propagation.ts): a channel of its own, so that webhook traffic never wakes the logout workers. */
export const LOGOUT_CHANNEL = 'tessera_logout_outbox';

/**
 * Deliveries are due now (enqueued, or queued again): wakes this process's worker and, on
 * PostgreSQL, every node's through a NOTIFY that `db`'s transaction sends when it commits.
 */
export async function announceDeliveries(db: Handle): Promise<void> {
  await notifyOnCommit(db, OUTBOX_CHANNEL);
  signal.emit('enqueued');
}

/** Logout tokens are due now: wakes this process's workers and, on PostgreSQL, every node's logout worker at commit. */
export async function announceLogouts(db: Handle): Promise<void> {
  await notifyOnCommit(db, LOGOUT_CHANNEL);
  signal.emit('enqueued');
}

export function onEnqueued(listener: () => void): () => void {
  signal.on('enqueued', listener);
  return () => signal.off('enqueued', listener);
}
