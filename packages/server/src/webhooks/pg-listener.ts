import pg from 'pg';
import { OUTBOX_CHANNEL } from './outbox-signal.js';
import type { WorkerLog } from './worker-log.js';

const RECONNECT_MS = 5_000;

/**
 * LISTENs on PostgreSQL for the NOTIFY that enqueueing sends at commit, so every node's worker
 * starts on new deliveries at once rather than at its next poll. Polling still runs: a lost
 * connection only costs latency, and it is re-established (with a wake-up, for what was missed).
 */
export function listenForDeliveries(
  databaseUrl: string,
  onNotify: () => void,
  log: WorkerLog,
): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const reconnectLater = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    client = c;
    c.on('notification', () => onNotify());
    c.on('error', (error) => {
      log.warn({ err: { message: error.message } }, 'webhook outbox listener lost its connection');
      void c.end().catch(() => {});
      if (client === c) client = null;
      reconnectLater();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${OUTBOX_CHANNEL}`);
      if (closed) await c.end();
      else onNotify();
    } catch (error) {
      log.warn({ err: { message: (error as Error).message } }, 'webhook outbox listener could not connect');
      void c.end().catch(() => {});
      if (client === c) client = null;
      reconnectLater();
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
