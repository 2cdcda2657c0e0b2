import type { Config } from './config/config.js';
import { loadMasterSecret } from './crypto/master-secret.js';
import { Sealer } from './crypto/sealing.js';
import type { Deps } from './domain/context.js';
import { KeyRing } from './domain/keys.js';
import { ensureConsoleOrg } from './domain/orgs.js';
import { openStore } from './storage/db.js';
import { migrate } from './storage/migrate.js';

export interface Runtime {
  deps: Deps;
  close(): Promise<void>;
}

/** Opens the database, brings the schema up to date and makes sure the console org exists. */
export async function openRuntime(config: Config, warn: (line: string) => void): Promise<Runtime> {
  const sealer = new Sealer(loadMasterSecret(config, warn));
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(store.db);
    const deps: Deps = {
      db: store.db,
      dialect: store.dialect,
      sealer,
      config,
      keyRing: new KeyRing(store.db, sealer),
    };
    await ensureConsoleOrg(deps);
    return { deps, close: () => store.close() };
  } catch (error) {
    await store.close();
    throw error;
  }
}
