import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/config.js';
import type { Deps } from '../../../src/domain/context.js';
import { openRuntime } from '../../../src/runtime.js';
import type { Db } from '../../../src/storage/db.js';
import { createPostgresSchema } from '../../support/postgres.js';
import { type Database, TEST_SECRET } from '../../support/runtime.js';
import { eventually } from './eventually.js';
import type { TestTls } from './tls.js';

export interface SharedStore {
  /** This process's handle on the store; it runs no delivery worker. */
  deps: Deps;
  /** The database itself, to read stored rows. */
  db: Db;
  /** The environment of a `tessera serve` or `tessera worker` child on the same store. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A migrated store shared with child processes (an SQLite data dir or a PostgreSQL schema). This
 * process writes the events; the children deliver them to the test receiver, which they trust
 * through NODE_EXTRA_CA_CERTS and reach on loopback with TESSERA_OUTBOUND_ALLOW_PRIVATE=1.
 */
export async function openSharedStore(
  database: Database,
  tls: TestTls,
  env: Record<string, string> = {},
): Promise<SharedStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-webhooks-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : null;
  const shared: Record<string, string> = {
    TESSERA_URL: 'http://localhost:4000',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: TEST_SECRET,
    TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    ...env,
  };
  const runtime = await openRuntime(loadConfig(shared), () => {});
  return {
    deps: runtime.deps,
    db: runtime.db,
    env: { ...shared, NODE_EXTRA_CA_CERTS: tls.certPath },
    async close() {
      await runtime.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once no delivery is pending any more; fails after `timeoutMs`. */
export async function settled(store: { db: Db }, timeoutMs: number): Promise<void> {
  await eventually(
    async () => {
      const row = await store.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return Number(row.n) === 0;
    },
    timeoutMs,
    'every delivery to be settled',
  );
}
