import { OUTBOX_CHANNEL } from '../domain/webhooks/index.js';
import { listenForChanges } from '../storage/change-listener.js';
import type { WorkerLog } from './worker-log.js';

/**
 * LISTENs on PostgreSQL for the NOTIFY that enqueueing sends at commit, so every node's worker
 * starts on new deliveries at once rather than at its next poll. Polling still runs: a lost
 * connection only costs latency, and each (re)connection wakes the worker for what was missed.
 */
export function listenForDeliveries(
  databaseUrl: string,
  onNotify: () => void,
  log: WorkerLog,
): { close(): Promise<void> } {
  return listenForChanges(databaseUrl, OUTBOX_CHANNEL, {
    onChange: onNotify,
    onLive: (live) => {
      if (live) onNotify();
    },
    warn: (line) => log.warn({}, `webhook outbox ${line}`),
  });
}
