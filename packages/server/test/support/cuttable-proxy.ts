import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of PostgreSQL that a test can cut and restore: `cut()` ends
 * every connection through it and refuses new ones, as a database restart or failover would,
 * without touching the database that other test files share.
 */
export interface CuttableProxy {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let up = true;
  const server: Server = createServer((inbound) => {
    if (!up) {
      inbound.destroy();
      return;
    }
    const outbound = connect(target.port, target.host);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const destroyAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  return {
    port,
    cut() {
      up = false;
      destroyAll();
    },
    restore() {
      up = true;
    },
    close: () =>
      new Promise((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
