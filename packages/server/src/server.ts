import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { type Seeded, seedDemo } from './dev/seed.js';
import type { Deps } from './domain/context.js';
import { buildApp } from './http/app.js';
import { Metrics } from './observability/metrics.js';
import { openRuntime } from './runtime.js';
import { outboxDepth } from './storage/outbox-depth.js';
import { DeliveryWorker, type WorkerOptions } from './webhooks/worker.js';

export interface RunningServer {
  app: FastifyInstance;
  deps: Deps;
  url: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  logLevel?: string;
  seed?: boolean;
  /** Where start-up lines go (the seed banner, warnings). */
  print?: (line: string) => void;
  /** Where request logs go (default stdout). */
  logStream?: { write(chunk: string): void };
  /** The webhook delivery worker of this process: its options, or false for none. */
  webhooks?: WorkerOptions | false;
}

/** `tessera serve`: migrate, seed a demo org on a fresh dev data dir, listen. */
export async function serve(config: Config, options: ServeOptions = {}): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const runtime = await openRuntime(config, (line) => print(`warning: ${line}`), { cacheCredentials: true });
  const metrics = new Metrics({
    outboxDepth: () => outboxDepth(runtime.deps.db).catch(() => null),
    pool: () => runtime.poolStats(),
  });
  const app = buildApp(runtime.deps, {
    metrics,
    logLevel: options.logLevel ?? config.logLevel,
    logStream: options.logStream,
  });
  try {
    await app.listen({ port: config.port, host: config.loopback ? '127.0.0.1' : '0.0.0.0' });
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const worker =
    options.webhooks === false
      ? null
      : new DeliveryWorker(runtime.deps, { log: app.log, metrics, ...options.webhooks }).start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (options.seed ?? true) {
    const seeded = await seedDemo(runtime.deps);
    if (seeded) printSeed(print, seeded, config.baseUrl);
  }
  return {
    app,
    deps: runtime.deps,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await worker?.stop();
      await runtime.close();
    },
  };
}

function printSeed(print: (line: string) => void, s: Seeded, base: string) {
  print('');
  print('Tessera is seeded with a demo organization (shown once; this data dir keeps it):');
  print(`  issuer         ${s.issuer}`);
  print(`  owner login    ${s.ownerEmail} / ${s.ownerPassword}   (console: ${base}/)`);
  print(`  client id      ${s.clientId}`);
  print(`  client secret  ${s.clientSecret}`);
  print('  get a machine token:');
  print(
    `  curl -s ${s.issuer}oauth/token -d grant_type=client_credentials -d client_id=${s.clientId} -d client_secret=${s.clientSecret}`,
  );
  print('');
}
