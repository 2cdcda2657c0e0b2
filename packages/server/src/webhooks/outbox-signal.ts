import { EventEmitter } from 'node:events';

/**
 * Tells this process's delivery worker that deliveries were just enqueued, so it need not wait for
 * its next poll. Only a hint: the rows may not be committed yet (the worker then finds them on a
 * later look); other processes learn of them by polling, or on PostgreSQL by NOTIFY at commit.
 */
const signal = new EventEmitter();
signal.setMaxListeners(0);

export const OUTBOX_CHANNEL = 'tessera_webhook_outbox';

export function notifyEnqueued(): void {
  signal.emit('enqueued');
}

export function onEnqueued(listener: () => void): () => void {
  signal.on('enqueued', listener);
  return () => signal.off('enqueued', listener);
}
