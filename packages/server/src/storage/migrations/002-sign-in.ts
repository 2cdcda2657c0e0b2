import type { Kysely } from 'kysely';
import { belongsTo, lifespan, orgId, required, singleUse, timestamps } from './column-parts.js';
import { dropTables, expiryIndex, keyedTable, orgTable, tableIndex } from './table-parts.js';

/**
 * Sign-in: browser sessions, authorization requests and codes, OAuth sessions, refresh tokens,
 * consents, throttle counters, profile keys. Short-lived rows are purged by `expires_at` as new
 * ones are written, hence those indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'browser_sessions', 'token_hash')
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .$call(required({ amr: 'text', acr: 'text' }))
    .$call(lifespan)
    .execute();
  await expiryIndex(db, 'browser_sessions_expiry', 'browser_sessions');

  await orgTable(db, 'authorization_requests')
    .addColumn('client_id', 'text', belongsTo('clients.id'))
    .$call(required({ redirect_uri: 'text', redirect_uri_given: 'integer' }))
    .addColumn('state', 'text')
    .addColumn('code_challenge', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .$call(lifespan)
    .addColumn('completed_at', 'bigint')
    .execute();
  await expiryIndex(db, 'authorization_requests_expiry', 'authorization_requests');

  await orgTable(db, 'oauth_sessions')
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .addColumn('client_id', 'text', belongsTo('clients.id'))
    .addColumn('tenant_id', 'text', (c) => c.references('tenants.id').onDelete('set null'))
    .$call(required({ amr: 'text', acr: 'text', scope: 'text' }))
    .$call(lifespan)
    .addColumn('revoked_at', 'bigint')
    .execute();
  await tableIndex(db, 'oauth_sessions_user', 'oauth_sessions', ['user_id']);

  await orgTable(db, 'authorization_codes', 'code_hash')
    .addColumn('client_id', 'text', belongsTo('clients.id'))
    .addColumn('session_id', 'text', belongsTo('oauth_sessions.id'))
    .$call(required({ redirect_uri: 'text', redirect_uri_given: 'integer' }))
    .addColumn('code_challenge', 'text')
    .$call(singleUse)
    .execute();
  await expiryIndex(db, 'authorization_codes_expiry', 'authorization_codes');

  await keyedTable(db, 'refresh_tokens', 'token_hash')
    .addColumn('session_id', 'text', belongsTo('oauth_sessions.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .$call(singleUse)
    .execute();
  await tableIndex(db, 'refresh_tokens_session', 'refresh_tokens', ['session_id']);
  await expiryIndex(db, 'refresh_tokens_expiry', 'refresh_tokens');

  await db.schema
    .createTable('consents')
    .$call(orgId)
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .addColumn('client_id', 'text', belongsTo('clients.id'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addPrimaryKeyConstraint('consents_pk', ['user_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('login_attempts')
    .$call(orgId)
    .$call(required({ key: 'text', window_start: 'bigint', attempts: 'integer' }))
    .addPrimaryKeyConstraint('login_attempts_pk', ['org_id', 'key'])
    .execute();

  await orgTable(db, 'profile_keys', 'key_hash')
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .$call(singleUse)
    .execute();
  await expiryIndex(db, 'profile_keys_expiry', 'profile_keys');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, [
    'profile_keys',
    'login_attempts',
    'consents',
    'refresh_tokens',
    'authorization_codes',
    'oauth_sessions',
    'authorization_requests',
    'browser_sessions',
  ]);
}
