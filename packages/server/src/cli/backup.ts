import { loadConfig } from '../config/config.js';
import { backupSqlite } from '../storage/backup.js';
import { UsageError, type Values } from './args.js';
import type { Launch } from './lifecycle.js';
import type { USAGES } from './usage.js';

/**
 * `tessera backup FILE`: the SQLite database of TESSERA_DATA_DIR, copied while it serves; prints
 * {"file","bytes"}. PostgreSQL has its own tools for this (pg_dump): the command says so.
 */
export function backupCommand(_f: Values<typeof USAGES.backup.flags>, file?: string): Launch {
  if (file === undefined || file === '') throw new UsageError('a FILE to write the backup to is required');
  return async () => {
    const config = loadConfig();
    if (config.databaseUrl) {
      throw new Error(
        'tessera backup copies the SQLite database; with DATABASE_URL back up with pg_dump (see docs/deploying.md)',
      );
    }
    process.stdout.write(`${JSON.stringify(await backupSqlite(config.dataDir, file))}\n`);
    return 0;
  };
}
