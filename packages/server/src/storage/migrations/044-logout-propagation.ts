import type { Kysely } from 'kysely';
import { required, timestamps } from './column-parts.js';
import { addFlag, dropTables, orgTable, tableIndex } from './table-parts.js';

/**
 * Logout that reaches every app (OIDC Back-Channel Logout 1.0, Front-Channel Logout 1.0):
 *
 * - `clients`: the client's `backchannel_logout_uri` and `frontchannel_logout_uri`, each with its
 *   `…_session_required` flag (0/1).
 * - `session_clients`: which clients each browser sign-in (the login cookie's hash) signed into, with
 *   the `sid` that client's ID tokens carry: random, one per browser sign-in and client, so no two
 *   clients share one. Kept after the browser sign-in ends only until its logout is enqueued.
 * - `oauth_sessions.sid`: that sid, for the ID tokens a refresh issues; null for sessions opened
 *   without a browser (their ID tokens carry the session's id).
 * - `logout_deliveries`: the logout tokens to POST, claimed and retried like webhook deliveries;
 *   the last attempt's outcome is kept on the row (the delivery log).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('backchannel_logout_uri', 'text').execute();
  await addFlag(db, 'clients', 'backchannel_logout_session_required');
  await db.schema.alterTable('clients').addColumn('frontchannel_logout_uri', 'text').execute();
  await addFlag(db, 'clients', 'frontchannel_logout_session_required');
  await db.schema.alterTable('oauth_sessions').addColumn('sid', 'text').execute();
  await orgTable(db, 'session_clients', 'sid')
    .$call(required({ browser_session: 'text', user_id: 'text' }))
    // A client's id, or a metadata document's URL (no row in clients): no foreign key.
    .addColumn('client_id', 'text', (c) => c.notNull())
    // The client's logout endpoints when it signed in, for a metadata-document client (a client
    // with a row is read as it is at sign-out).
    .addColumn('backchannel_logout_uri', 'text')
    .addColumn('backchannel_logout_session_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('frontchannel_logout_uri', 'text')
    .addColumn('frontchannel_logout_session_required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await tableIndex(
    db,
    'session_clients_browser_client',
    'session_clients',
    ['browser_session', 'client_id'],
    { unique: true },
  );
  await tableIndex(db, 'session_clients_user', 'session_clients', ['user_id']);
  // The purge of what expired sign-ins recorded.
  await tableIndex(db, 'session_clients_created', 'session_clients', ['created_at']);
  await orgTable(db, 'logout_deliveries')
    .$call(required({ client_id: 'text', url: 'text', sub: 'text' }))
    .addColumn('sid', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'logout_deliveries_due', 'logout_deliveries', ['status', 'next_attempt_at']);
  await tableIndex(db, 'logout_deliveries_client', 'logout_deliveries', [
    'org_id',
    'client_id',
    'created_at',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['logout_deliveries', 'session_clients']);
  await db.schema.alterTable('oauth_sessions').dropColumn('sid').execute();
  for (const column of [
    'frontchannel_logout_session_required',
    'frontchannel_logout_uri',
    'backchannel_logout_session_required',
    'backchannel_logout_uri',
  ]) {
    await db.schema.alterTable('clients').dropColumn(column).execute();
  }
}
