import './key-pairs.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { migratedPostgresSchema, migratedSqliteInto } from './migrated-stores.js';

export type Database = 'sqlite' | 'postgres';
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** A migrated store with the domain's dependencies, without HTTP: for storage and domain suites. */
export async function openTestRuntime(database: Database): Promise<Runtime & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-store-'));
  const schema = database === 'postgres' ? await migratedPostgresSchema() : null;
  if (database === 'sqlite') await migratedSqliteInto(dataDir);
  const config = loadConfig({
    TESSERA_URL: 'http://localhost:4000',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: TEST_SECRET,
    ...(schema ? { DATABASE_URL: schema.url } : {}),
  });
  const runtime = await openRuntime(config, () => {});
  return {
    deps: runtime.deps,
    db: runtime.db,
    poolStats: runtime.poolStats,
    reads: runtime.reads,
    dataDir,
    async close() {
      await runtime.close();
      await schema?.release();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
