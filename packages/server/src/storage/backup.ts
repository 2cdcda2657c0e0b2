import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** The SQLite file of a data dir (storage/db.ts opens the same one). */
export const sqliteFile = (dataDir: string) => join(dataDir, 'tessera.db');

/**
 * `tessera backup FILE`: a consistent copy of the data dir's SQLite database, taken with SQLite's
 * online backup while servers keep reading and writing it (they wait at most a few milliseconds for
 * each step). The copy is a whole database in one file, WAL included: restored by putting it at
 * `<data dir>/tessera.db` of a stopped server. Never overwrites a file.
 */
export async function backupSqlite(
  dataDir: string,
  target: string,
): Promise<{ file: string; bytes: number }> {
  const source = sqliteFile(dataDir);
  const file = resolve(target);
  if (!existsSync(source)) throw new Error(`no database to back up at ${source} (TESSERA_DATA_DIR)`);
  if (existsSync(file)) throw new Error(`${file} exists: the backup never overwrites a file`);
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(file);
  } finally {
    db.close();
  }
  return { file, bytes: statSync(file).size };
}
