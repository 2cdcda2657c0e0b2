import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './db.js';
import * as foundation from './migrations/001-foundation.js';
import * as signIn from './migrations/002-sign-in.js';
import * as rateLimits from './migrations/003-rate-limits.js';
import * as webhooks from './migrations/004-webhooks.js';
import * as webhookDeliveries from './migrations/005-webhook-deliveries.js';
import * as secondFactorAndDelegation from './migrations/006-second-factor-and-delegation.js';
import * as openid from './migrations/007-openid.js';

/** Migrations are compiled in, not read from disk, so the order is fixed and reviewable here. */
const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-sign-in': signIn,
  '003-rate-limits': rateLimits,
  '004-webhooks': webhooks,
  '005-webhook-deliveries': webhookDeliveries,
  '006-second-factor-and-delegation': secondFactorAndDelegation,
  '007-openid': openid,
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
