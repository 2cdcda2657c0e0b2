import { type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from 'kysely';
import type { Db } from './db.js';
import type { Handle } from './handle.js';
import * as foundation from './migrations/001-foundation.js';
import * as signIn from './migrations/002-sign-in.js';
import * as rateLimits from './migrations/003-rate-limits.js';
import * as webhooks from './migrations/004-webhooks.js';
import * as webhookDeliveries from './migrations/005-webhook-deliveries.js';
import * as secondFactorAndDelegation from './migrations/006-second-factor-and-delegation.js';
import * as openid from './migrations/007-openid.js';
import * as credentialChanges from './migrations/008-credential-changes.js';
import * as auditCountKeys from './migrations/009-audit-count-keys.js';
import * as refreshTokenSuccessors from './migrations/010-refresh-token-successors.js';
import * as userDisabled from './migrations/011-user-disabled.js';
import * as clientManagement from './migrations/012-client-management.js';
import * as orgChanges from './migrations/013-org-changes.js';
import * as browserSessionLinks from './migrations/014-browser-session-links.js';
import * as mail from './migrations/015-mail.js';
import * as passkeys from './migrations/016-passkeys.js';
import * as clientMetadataDocuments from './migrations/017-client-metadata-documents.js';
import * as sealedCheck from './migrations/018-sealed-check.js';
import * as clientKeys from './migrations/019-client-keys.js';
import * as authorizationRequestOptions from './migrations/020-authorization-request-options.js';
import * as clientAllowedOrigins from './migrations/021-client-allowed-origins.js';
import * as apiResources from './migrations/022-api-resources.js';
import * as orgRegistration from './migrations/023-org-registration.js';
import * as serviceAccounts from './migrations/024-service-accounts.js';
import * as signUpPolicy from './migrations/025-sign-up-policy.js';
import * as invitations from './migrations/026-invitations.js';
import * as connections from './migrations/027-connections.js';
import * as clientJwksUri from './migrations/028-client-jwks-uri.js';
import * as listOrderIndexes from './migrations/029-list-order-indexes.js';
import * as credentialVersion from './migrations/030-credential-version.js';
import * as listCounts from './migrations/031-list-counts.js';
import * as memberEmailOrder from './migrations/032-member-email-order.js';
import * as auditDayTotals from './migrations/033-audit-day-totals.js';
import * as userSearchTrigrams from './migrations/034-user-search-trigrams.js';
import * as clientRequestObjectAlg from './migrations/035-client-request-object-alg.js';
import * as accountOrigins from './migrations/036-account-origins.js';
import * as standardClaims from './migrations/037-standard-claims.js';
import * as resourceGrants from './migrations/038-resource-grants.js';
import * as retiredRefreshTokens from './migrations/040-retired-refresh-tokens.js';
import * as serviceSettings from './migrations/041-service-settings.js';
import * as pushedAuthorizationRequests from './migrations/042-pushed-authorization-requests.js';
import * as deviceAuthorizations from './migrations/043-device-authorizations.js';
import * as logoutPropagation from './migrations/044-logout-propagation.js';
import * as dpop from './migrations/045-dpop.js';
import * as scim from './migrations/046-scim.js';
import * as logStreams from './migrations/047-log-streams.js';
import * as trustedApps from './migrations/048-trusted-apps.js';
import * as keyBoundCodesAndSigningAlgorithms from './migrations/049-key-bound-codes-and-signing-algorithms.js';
import * as languages from './migrations/050-languages.js';
import * as logStreamSignal from './migrations/051-log-stream-signal.js';
import * as branding from './migrations/052-branding.js';
import * as customDomains from './migrations/053-custom-domains.js';
import * as serviceAccountChanges from './migrations/056-service-account-changes.js';
import * as userSearchIndex from './migrations/057-user-search-index.js';
import * as userSearchRows from './migrations/058-user-search-rows.js';
import * as pageReadChanges from './migrations/060-page-read-changes.js';
import * as userSearchByOrg from './migrations/061-user-search-by-org.js';
import { opened } from './opened.js';
import { scopedToSchema } from './schema-introspection.js';

/** Migrations are compiled in, not read from disk, so the order is fixed and reviewable here. */
const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-sign-in': signIn,
  '003-rate-limits': rateLimits,
  '004-webhooks': webhooks,
  '005-webhook-deliveries': webhookDeliveries,
  '006-second-factor-and-delegation': secondFactorAndDelegation,
  '007-openid': openid,
  '008-credential-changes': credentialChanges,
  '009-audit-count-keys': auditCountKeys,
  '010-refresh-token-successors': refreshTokenSuccessors,
  '011-user-disabled': userDisabled,
  '012-client-management': clientManagement,
  '013-org-changes': orgChanges,
  '014-browser-session-links': browserSessionLinks,
  '015-mail': mail,
  '016-passkeys': passkeys,
  '017-client-metadata-documents': clientMetadataDocuments,
  '018-sealed-check': sealedCheck,
  '019-client-keys': clientKeys,
  '020-authorization-request-options': authorizationRequestOptions,
  '021-client-allowed-origins': clientAllowedOrigins,
  '022-api-resources': apiResources,
  '023-org-registration': orgRegistration,
  '024-service-accounts': serviceAccounts,
  '025-sign-up-policy': signUpPolicy,
  '026-invitations': invitations,
  '027-connections': connections,
  '028-client-jwks-uri': clientJwksUri,
  '029-list-order-indexes': listOrderIndexes,
  '030-credential-version': credentialVersion,
  '031-list-counts': listCounts,
  '032-member-email-order': memberEmailOrder,
  '033-audit-day-totals': auditDayTotals,
  '034-user-search-trigrams': userSearchTrigrams,
  '035-client-request-object-alg': clientRequestObjectAlg,
  '036-account-origins': accountOrigins,
  '037-standard-claims': standardClaims,
  '038-resource-grants': resourceGrants,
  '040-retired-refresh-tokens': retiredRefreshTokens,
  '041-service-settings': serviceSettings,
  '042-pushed-authorization-requests': pushedAuthorizationRequests,
  '043-device-authorizations': deviceAuthorizations,
  '044-logout-propagation': logoutPropagation,
  '045-dpop': dpop,
  '046-scim': scim,
  '047-log-streams': logStreams,
  '048-trusted-apps': trustedApps,
  '049-key-bound-codes-and-signing-algorithms': keyBoundCodesAndSigningAlgorithms,
  '050-languages': languages,
  '051-log-stream-signal': logStreamSignal,
  '052-branding': branding,
  '053-custom-domains': customDomains,
  '056-service-account-changes': serviceAccountChanges,
  '057-user-search-index': userSearchIndex,
  '058-user-search-rows': userSearchRows,
  '060-page-read-changes': pageReadChanges,
  '061-user-search-by-org': userSearchByOrg,
};

/** The newest migration this build knows: a database that has it is up to date. */
export const LATEST_MIGRATION = Object.keys(MIGRATIONS).at(-1) as string;

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Brings the schema up to date; safe to run from several processes (the migrator takes a lock). */
export async function migrate(store: Handle): Promise<string[]> {
  const db = opened(store);
  const schema = await postgresSchema(db);
  const migrator = new Migrator({
    db: schema.migrationTableSchema ? scopedToSchema(db, schema.migrationTableSchema) : db,
    provider,
    migrationTableName: 'tessera_migrations',
    migrationLockTableName: 'tessera_migrations_lock',
    ...schema,
  });
  let { error, results } = await migrator.migrateToLatest();
  // Two processes starting on an empty database both create the migrator's own tables before either
  // holds its lock; PostgreSQL then refuses the second `create table if not exists` on its catalog's
  // unique index. Nothing was applied by the refused one: it tries again, behind the lock this time.
  for (let attempt = 1; error && attempt < 3 && isCatalogRace(error); attempt++) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`migration ${failed} failed: ${(error as Error).message}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** PostgreSQL's refusal of a concurrent `create … if not exists` of the same name (23505 on a catalog index). */
function isCatalogRace(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === '23505' && typeof e.constraint === 'string' && e.constraint.startsWith('pg_');
}

/**
 * On PostgreSQL the migrator must be told the schema it works in: otherwise it takes a migration
 * table found in any other schema of the database (another Tessera, or a test run) for its own.
 */
async function postgresSchema(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new MigrationError('PostgreSQL has no current schema: check the search_path');
  return { migrationTableSchema: schema };
}

/**
 * Whether the database answers and holds every migration of this build (readiness). Throws what
 * the database threw when it cannot be reached, and on PostgreSQL when it is a server in recovery
 * (a standby, reached through a proxy before its promotion): every write would fail there.
 */
export async function isSchemaCurrent(store: Handle): Promise<boolean> {
  const db = opened(store);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ current: boolean; standby: boolean }>`select exists (
      select 1 from tessera_migrations where name = ${LATEST_MIGRATION}) as current,
      pg_is_in_recovery() as standby`.execute(db);
    if (rows[0]?.standby) throw new Error('the database is a standby in recovery: it takes no writes');
    return rows[0]?.current === true;
  }
  const { rows } = await sql<{
    name: string;
  }>`select name from tessera_migrations where name = ${LATEST_MIGRATION}`.execute(db);
  return rows.length === 1;
}
