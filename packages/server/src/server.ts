import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { preloadKeys } from './crypto/verify-jwt.js';
import { ClientMetadataFetcher, type MetadataFetcherOptions } from './delivery/client-metadata-fetcher.js';
import { LogStreamWorker, type LogStreamWorkerOptions } from './delivery/log-stream-worker.js';
import { LogoutWorker, logoutOptions } from './delivery/logout-worker.js';
import { allowPrivateWarnings } from './delivery/private-addresses.js';
import { UpstreamFetcher, type UpstreamFetcherOptions } from './delivery/upstream-fetcher.js';
import { DeliveryWorker, type WorkerOptions } from './delivery/worker.js';
import { demoLogin, seedDemo, writeDemoCredentials } from './dev/seed.js';
import type { Deps } from './domain/context.js';
import {
  ClientKeySets,
  ClientMetadataDocuments,
  ensureConsoleClient,
  ensureConsoleOrg,
} from './domain/directory/index.js';
import { OidcUpstreams, type OidcUpstreamsOptions } from './domain/federation/index.js';
import { issuerForm } from './domain/issuers.js';
import { publicJwks } from './domain/keys/index.js';
import { recordServedUrl } from './domain/served-url.js';
import { buildApp } from './http/app.js';
import { loadConsoleFiles } from './http/console/console-files.js';
import { mailerFor } from './mail/mailers.js';
import { createLogger, type Logger } from './observability/logger.js';
import { Metrics } from './observability/metrics.js';
import { logMigrations } from './observability/migration-log.js';
import { openRuntime, type Runtime } from './runtime.js';
import type { Db } from './storage/db.js';
import { outboxDepth } from './storage/repos/webhook-deliveries.js';
import { retriedWhenConnectionsEnd } from './storage/start-up-retry.js';

export interface RunningServer {
  app: FastifyInstance;
  deps: Deps;
  /** The database itself (runtime.ts), for what reads stored rows beside the app: the tests. */
  db: Db;
  url: string;
  /** With TESSERA_DB_READ_URL: what decides which reads go to the replica. */
  reads: Runtime['reads'];
  close(): Promise<void>;
}

export interface ServeOptions {
  logLevel?: string;
  seed?: boolean;
  /**
   * The process's log, for start-up lines, warnings and the demo seed line (default: JSON lines at
   * `logLevel` to `logStream`).
   */
  log?: Logger;
  /** Where request logs (and, without `log`, the process's lines) go (default stdout). */
  logStream?: { write(chunk: string): void };
  /** The webhook delivery worker of this process: its options, or false for none. */
  webhooks?: WorkerOptions | false;
  /** The audit-log stream worker of this process: its options, or false for none. */
  logStreams?: LogStreamWorkerOptions | false;
  /**
   * Open the PostgreSQL pool's kept connections and read the schema's catalog on them before
   * listening (storage/warm-pool.ts); default true.
   */
  warm?: boolean;
  /** The web console's build to serve at /console/ (default: packages/console/dist beside this package). */
  consoleDir?: string;
  /** Client ID Metadata Document (and jwks_uri) fetches: a test CA, resolver or time limit (tests only). */
  clientMetadata?: Omit<MetadataFetcherOptions, 'allowPrivate'>;
  /**
   * Connections' upstream calls: smaller caps, a test CA or resolver (tests and benches), how long
   * discovery is kept (0: never, for a bench that measures discovery itself).
   */
  upstreams?: Omit<UpstreamFetcherOptions, 'allowPrivate'> & OidcUpstreamsOptions;
  /**
   * Called with the app before it listens, to add hooks of its own (tests only: the test harness
   * checks every answer against its operation's declaration, packages/server/test/support/answer-check.ts).
   */
  instrument?: (app: FastifyInstance) => void;
}

/** packages/console/dist, seen from packages/server/src or packages/server/dist alike. */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../console/dist/', import.meta.url));

/** `tessera serve`: migrate, seed a demo org on a fresh dev data dir, listen. */
export async function serve(config: Config, options: ServeOptions = {}): Promise<RunningServer> {
  const logLevel = options.logLevel ?? config.logLevel;
  const log = options.log ?? createLogger(logLevel, options.logStream);
  const mail = mailerFor(config, log);
  if (mail.warning !== null) log.warn(mail.warning);
  for (const warning of allowPrivateWarnings(config)) log.warn(warning);
  // Made before the runtime, so the store reports its connection waits from the first query on.
  let opened: Runtime | null = null;
  const metrics = new Metrics({
    outboxDepth: () => (opened ? outboxDepth(opened.deps.store).catch(() => null) : Promise.resolve(null)),
    pool: () => opened?.poolStats() ?? null,
  });
  const runtime = await openRuntime(config, (line) => log.warn(line), {
    cacheCredentials: true,
    warm: options.warm ?? true,
    mailer: mail.mailer,
    onMigrated: (migrations) => logMigrations(log, migrations),
    onConnectionWait: (seconds) => metrics.connectionWaited(seconds),
    onRecoveryConflict: () => metrics.replicaRecoveryConflict(),
  });
  opened = runtime;
  // The console's client follows this server's TESSERA_URL; a CLI command run with another one
  // (or none) must not move it, so only serve sets it.
  try {
    await retriedWhenConnectionsEnd(
      async () => {
        const consoleOrg = await ensureConsoleOrg(runtime.deps);
        await ensureConsoleClient(runtime.deps, consoleOrg);
        // The CLI prints and mails URLs with these settings, whatever its own environment says.
        await recordServedUrl(runtime.deps.store, config, Date.now());
        // Every management request verifies a token of the console's issuer: its keys are imported now.
        await preloadKeys(await publicJwks(runtime.deps.store, consoleOrg.id));
      },
      (line) => log.warn(line),
    );
  } catch (error) {
    await runtime.close();
    throw error;
  }
  // Metadata documents are fetched by the webhook address policy and kept in this process's memory.
  const fetcher = new ClientMetadataFetcher({
    allowPrivate: config.outboundAllowPrivate,
    ...options.clientMetadata,
  });
  // Why a document was not used goes to the log only; the requester is told one generic sentence.
  const documents = new ClientMetadataDocuments(fetcher, (clientId, problem) =>
    log.info({ clientId, problem }, 'client metadata document not used'),
  );
  // Clients' key sets (jwks_uri) are fetched the same way; why one was not used goes to the log.
  const keySets = new ClientKeySets(fetcher, (jwksUri, problem) =>
    log.info({ jwksUri, problem }, 'client key set not used'),
  );
  // Connections' providers are reached under the same policy, with caps of their own; what they
  // publish is kept per process, and why one was not used goes to the log.
  const { discoveryCacheMs, maxFetchesPerOrg, ...fetcherOptions } = options.upstreams ?? {};
  const upstreamFetcher = new UpstreamFetcher({
    allowPrivate: config.outboundAllowPrivate,
    ...fetcherOptions,
  });
  const upstreams = new OidcUpstreams(
    upstreamFetcher.fetch,
    (connectionId, problem) => log.info({ connectionId, problem }, 'connection upstream not used'),
    {
      ...(discoveryCacheMs === undefined ? {} : { discoveryCacheMs }),
      ...(maxFetchesPerOrg === undefined ? {} : { maxFetchesPerOrg }),
    },
  );
  const deps: Deps = { ...runtime.deps, clientMetadata: documents, clientKeySets: keySets, upstreams };
  const app = buildApp(deps, {
    metrics,
    log,
    console: loadConsoleFiles(options.consoleDir ?? CONSOLE_BUILD_DIR),
    ...(runtime.reads ? { readScopes: runtime.reads } : {}),
  });
  options.instrument?.(app);
  try {
    await listenQuietly(app, config);
  } catch (error) {
    fetcher.close();
    upstreamFetcher.close();
    await runtime.close();
    throw error;
  }
  const worker =
    options.webhooks === false
      ? null
      : new DeliveryWorker(runtime.deps, { log: app.log, metrics, ...options.webhooks }).start();
  const streamer =
    options.logStreams === false
      ? null
      : new LogStreamWorker(runtime.deps, { log: app.log, ...options.logStreams }).start();
  // Logout tokens (OIDC Back-Channel Logout) go out beside the webhooks, with their options.
  const logouts =
    options.webhooks === false
      ? null
      : new LogoutWorker(deps, logoutOptions(app.log, options.webhooks)).start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${reachable(config.host)}:${port}`;
  if (options.seed ?? true) {
    const seeded = await seedDemo(runtime.deps);
    if (seeded) {
      const { file, credentials } = writeDemoCredentials(config, seeded);
      log.info(
        {
          issuer: credentials.issuer,
          console: credentials.console,
          ownerEmail: credentials.owner.email,
          clientId: credentials.client.id,
          credentials: file,
        },
        'seeded a demo organization: its owner password and client secret are in the credentials file',
      );
    }
  }
  // Last: once this line is out, the caller has what it needs (SIGTERM handling, say) in place.
  // The banner: where the console is and, in development, who to sign in as (the password stays in the file).
  const demo = config.loopback ? demoLogin(config) : null;
  log.info(
    {
      url: config.baseUrl,
      address: url,
      console: `${config.baseUrl}/console/`,
      // Where org issuers live, and the setting that chose it (path: Node clients need no DNS for them).
      orgIssuers: `${issuerForm(config)} (TESSERA_ISSUER_STYLE=${config.issuerStyle})`,
      ...(demo ? { demoOwner: demo.email, demoCredentials: demo.credentials } : {}),
    },
    'listening',
  );
  return {
    app,
    deps,
    db: runtime.db,
    url,
    reads: runtime.reads,
    close: async () => {
      await app.close();
      fetcher.close();
      upstreamFetcher.close();
      await worker?.stop();
      await streamer?.stop();
      await logouts?.stop();
      await runtime.close();
    },
  };
}

/**
 * `app.listen`, without Fastify's own `Server listening at …` line: the `listening` banner that
 * serve() writes once the server is ready is the one. Fastify writes its line through the app's
 * logger as soon as the socket is bound, before any request can arrive, so silencing that logger for
 * the call hides that line and nothing else.
 */
async function listenQuietly(app: FastifyInstance, config: Config): Promise<void> {
  const level = app.log.level;
  app.log.level = 'silent';
  try {
    await app.listen({ port: config.port, host: config.host });
  } finally {
    app.log.level = level;
  }
}

/** An address this machine reaches the server on, for the bind address `host`. */
function reachable(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
