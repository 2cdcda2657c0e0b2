import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './db.js';
import * as foundation from './migrations/001-foundation.js';

/** Migrations are compiled in, not read from disk, so the order is fixed and reviewable here. */
const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': foundation,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Brings the schema up to date; safe to run from several processes (the migrator takes a lock). */
export async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'tessera_migrations' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`migration ${failed} failed: ${(error as Error).message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
