import pg from 'pg';

const RECONNECT_MS = 1_000;

export interface ChangeListenerEvents {
  /** A NOTIFY arrived on `channel` (one of those listened on). */
  onChange(channel: string): void;
  /**
   * The listener is (true) or is no longer (false) LISTENing: while it is not, changes can go
   * unseen. `true` comes only after LISTEN succeeded, so nothing committed later is missed.
   */
  onLive(live: boolean): void;
  warn(line: string): void;
}

/**
 * One PostgreSQL connection LISTENing on `channel` (or on each of several), re-established after a
 * loss. Its own connection, outside the pool: a LISTEN lasts as long as the session that issued it.
 */
export function listenForChanges(
  databaseUrl: string,
  channel: string | readonly string[],
  events: ChangeListenerEvents,
): { close(): Promise<void> } {
  const channels = typeof channel === 'string' ? [channel] : channel;
  const named = channels.join(', ');
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const drop = (c: pg.Client, message: string) => {
    if (client !== c) return;
    client = null;
    events.onLive(false);
    void c.end().catch(() => {});
    if (closed) return;
    events.warn(`listener on ${named}: ${message}; retrying in ${RECONNECT_MS / 1000} s`);
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    client = c;
    c.on('notification', (message) => {
      if (channels.includes(message.channel)) events.onChange(message.channel);
    });
    c.on('error', (error) => drop(c, error.message));
    c.on('end', () => drop(c, 'connection ended'));
    try {
      await c.connect();
      // One round trip for all of them (a simple query may hold several statements).
      await c.query(channels.map((name) => `LISTEN ${pg.escapeIdentifier(name)}`).join('; '));
      if (closed || client !== c) await c.end();
      else events.onLive(true);
    } catch (error) {
      drop(c, (error as Error).message);
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) {
        events.onLive(false);
        await c.end().catch(() => {});
      }
    },
  };
}
