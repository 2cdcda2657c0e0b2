import './localhost-dns.js';
import './key-pairs.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/config/config.js';
import type { LogStreamWorkerOptions } from '../../src/delivery/log-stream-worker.js';
import type { WorkerOptions } from '../../src/delivery/worker.js';
import type { Deps } from '../../src/domain/context.js';
import { issuerOf } from '../../src/domain/issuers.js';
import { type RunningServer, type ServeOptions, serve } from '../../src/server.js';
import type { Db } from '../../src/storage/db.js';
import { AnswerChecker, checkAnswers, describeMismatch } from './answer-check.js';
import { migratedPostgresSchema, migratedSqliteInto } from './migrated-stores.js';

export interface TestServer {
  /** `http://localhost:<port>` — the console's base URL. */
  base: string;
  port: number;
  config: Config;
  deps: Deps;
  /** The database itself, to read and seed stored rows (what the domain holds is deps.store). */
  db: Db;
  /** With TESSERA_DB_READ_URL: the node's read router. */
  reads: RunningServer['reads'];
  dataDir: string;
  /** The issuer of an org slug: `http://<slug>.localhost:<port>/` (`http://localhost:<port>/o/<slug>/` with path issuers). */
  issuer(slug: string): string;
  /** Checks every answer of a declared operation against its declaration (see checkAnswers). */
  answers: AnswerChecker;
  /** Stops the server; fails, naming them, when any answer did not match its declaration. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  database?: 'sqlite' | 'postgres';
  env?: Record<string, string>;
  /** Collects what the server logs, to assert nothing secret is in it. */
  logs?: string[];
  /** Options of the server's webhook delivery worker (a test CA, a short poll), or false for none. */
  webhooks?: WorkerOptions | false;
  /** Options of the server's audit-log stream worker (a test CA, a short poll), or false for none. */
  logStreams?: LogStreamWorkerOptions | false;
  /** The web console's build to serve at /console/ (see test/console/support/console-build.ts). */
  consoleDir?: string;
  /** Client ID Metadata Document fetches: a test CA, a short time limit. */
  clientMetadata?: ServeOptions['clientMetadata'];
  /** Connections' upstream calls: smaller caps, a test resolver. */
  upstreams?: ServeOptions['upstreams'];
  /**
   * Checking every answer of a declared operation against its declaration: on in every suite; false
   * only where a test makes the server answer outside its declarations on purpose (and says why).
   */
  checkAnswers?: boolean;
}

/** A real Tessera on a free port with its own data dir (or a clean PostgreSQL schema). */
export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-test-'));
  // A store of the test process's pool, migrated already (support/migrated-stores.ts), unless the test
  // names a database or data dir of its own.
  const ownStore = options.env?.DATABASE_URL !== undefined || options.env?.TESSERA_DATA_DIR !== undefined;
  const schema = options.database === 'postgres' && !ownStore ? await migratedPostgresSchema() : null;
  if (options.database !== 'postgres' && !ownStore) await migratedSqliteInto(dataDir);
  // Port 0 picks a free port; TESSERA_URL must name it, so bind first, then configure.
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    TESSERA_URL: `http://localhost:${port}`,
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: 'test-secret-test-secret-test-secret-0123',
    // Loopback only, also for the suites whose TESSERA_URL is a public https name.
    HOST: '127.0.0.1',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    ...options.env,
  });
  const logs = options.logs;
  const answers = new AnswerChecker(config);
  const server = await serve(config, {
    seed: false,
    // Start-up lines and warnings go where the request logs go: into `logs`, when asked.
    logLevel: logs ? 'info' : 'silent',
    ...(logs ? { logStream: { write: (chunk: string) => void logs.push(chunk) } } : {}),
    ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
    ...(options.logStreams === undefined ? {} : { logStreams: options.logStreams }),
    ...(options.consoleDir === undefined ? {} : { consoleDir: options.consoleDir }),
    ...(options.clientMetadata === undefined ? {} : { clientMetadata: options.clientMetadata }),
    ...(options.upstreams === undefined ? {} : { upstreams: options.upstreams }),
    // Every answer of a declared operation is checked against its declared schema where a file asks.
    ...(options.checkAnswers !== false ? { instrument: (app) => checkAnswers(app, answers) } : {}),
  });
  return {
    base: `http://localhost:${port}`,
    port,
    config,
    deps: server.deps,
    db: server.db,
    reads: server.reads,
    dataDir,
    issuer: (slug) => issuerOf(config, { slug, isConsole: false, issuerDomain: null }),
    answers,
    async close() {
      await server.close();
      await schema?.release();
      rmSync(dataDir, { recursive: true, force: true });
      if (options.checkAnswers !== false && answers.mismatches.length > 0) {
        throw new Error(
          `answers not as declared:\n${answers.mismatches.map((m) => `  ${describeMismatch(m)}`).join('\n')}`,
        );
      }
    },
  };
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
