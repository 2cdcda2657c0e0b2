import { loadConfig } from '../config/config.js';
import { createLogger } from '../observability/logger.js';
import { openStore } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import type { Values } from './args.js';
import { type Launch, logged } from './lifecycle.js';
import type { USAGES } from './usage.js';

/**
 * `tessera migrate`: brings the schema up to date and prints `{"applied":[…]}` on stdout, its one
 * line of output. Its log lines (a lost connection, the fatal line of a failure) are JSON on stderr.
 * It needs no secret: nothing is encrypted or signed.
 */
export function migrateCommand(_f: Values<typeof USAGES.migrate.flags>): Launch {
  return logged(2, async () => {
    const config = loadConfig();
    const log = createLogger(config.logLevel, 2);
    const store = openStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      warn: (line) => log.warn(line),
    });
    try {
      const applied = await migrate(store.db);
      process.stdout.write(`${JSON.stringify({ applied })}\n`);
      return 0;
    } finally {
      await store.close();
    }
  });
}
