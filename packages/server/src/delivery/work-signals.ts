import { LOGOUT_CHANNEL, OUTBOX_CHANNEL } from '../domain/webhooks/index.js';
import { listenForChanges } from '../storage/change-listener.js';
import { LOG_STREAM_CHANNEL } from '../storage/migrations/051-log-stream-signal.js';
import type { WorkerLog } from './worker-log.js';

/**
 * What a worker is woken for: `outbox` and `logouts`, the NOTIFYs that enqueueing webhook deliveries and
 * logout tokens send at commit (domain/webhooks/outbox-signal.ts); `streams`, the NOTIFY an audit entry
 * of an org with an active log stream sends (migration 051).
 */
export type WorkChannel = 'outbox' | 'logouts' | 'streams';

const CHANNELS: Record<WorkChannel, string> = {
  outbox: OUTBOX_CHANNEL,
  logouts: LOGOUT_CHANNEL,
  streams: LOG_STREAM_CHANNEL,
};

export interface WorkSubscriber {
  /** Work may be waiting: look now. Also called each time the listener (re)connects, for what was missed. */
  wake(): void;
  /** Whether NOTIFYs reach this process now: while they do, a worker need only poll slowly. */
  live(live: boolean): void;
}

interface Shared {
  subscribers: Set<{ channel: WorkChannel; subscriber: WorkSubscriber }>;
  live: boolean;
  listener: { close(): Promise<void> };
}

/** One listener per node: per open store (a process runs one; a test may run several nodes in one process). */
const shared = new Map<object, Shared>();

/**
 * Wakes `subscriber` on `channel`'s NOTIFYs through ONE PostgreSQL connection per node (per open
 * `store`), LISTENing on every work channel (in one round trip), shared by the webhook, logout and log-stream workers
 * (with the credential caches' listener, a node holds two LISTEN connections). Opened by the first
 * subscriber, closed with the last. Polling stays each worker's own: a lost connection only costs
 * latency, and each (re)connection wakes every subscriber for what was missed meanwhile.
 */
export function listenForWork(
  store: object,
  databaseUrl: string,
  channel: WorkChannel,
  subscriber: WorkSubscriber,
  log: WorkerLog,
): { close(): Promise<void> } {
  let entry = shared.get(store);
  if (entry === undefined) {
    const opened: Shared = {
      subscribers: new Set(),
      live: false,
      listener: { close: async () => {} },
    };
    opened.listener = listenForChanges(databaseUrl, Object.values(CHANNELS), {
      onChange: (name) => {
        for (const s of opened.subscribers) if (CHANNELS[s.channel] === name) s.subscriber.wake();
      },
      onLive: (live) => {
        opened.live = live;
        for (const s of opened.subscribers) {
          s.subscriber.live(live);
          if (live) s.subscriber.wake();
        }
      },
      warn: (line) => log.warn({}, `work ${line}`),
    });
    shared.set(store, opened);
    entry = opened;
  }
  const own = { channel, subscriber };
  const current = entry;
  current.subscribers.add(own);
  if (current.live) subscriber.live(true);
  return {
    async close() {
      if (!current.subscribers.delete(own)) return;
      subscriber.live(false);
      if (current.subscribers.size > 0) return;
      if (shared.get(store) === current) shared.delete(store);
      await current.listener.close();
    },
  };
}
