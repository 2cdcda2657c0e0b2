import { type Kysely, sql } from 'kysely';
import { lifespan } from './column-parts.js';
import { addFlag, dropTables, expiryIndex, orgTable } from './table-parts.js';

/**
 * Who vouched for a user's address when the user was made (issue 41, DESIGN §16-§17), what
 * decides whether an upstream identity may be linked to them:
 * - `users.origin`: `sign_up` (self-service on the hosted pages: nobody vouched), `owner` (the
 *   CLI or the management API: the host or an owner did), `invitation` (accepting an owner's
 *   invitation), `connection` (made on first sign-in by the connection `origin_connection`, kept
 *   without a foreign key so it outlives the connection). Users made before this migration keep
 *   null: the CLI's and self-service sign-ups cannot be told apart, so they count as self-service
 *   (an unverified one proves its mailbox once before an upstream is linked to it); those a
 *   connection made are found from their oldest link.
 * - `connections.jit_any_domain`: the connection may create users at addresses outside its own
 *   `domains` (never in a domain another connection claims).
 * - `sign_up_requests`: a sign-up under the `domains` policy waiting for its mailed link: the
 *   account is made only when the link is followed. The token is stored as its SHA-256 only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('origin', 'text').execute();
  await db.schema.alterTable('users').addColumn('origin_connection', 'text').execute();
  await sql`update users set origin = 'connection', origin_connection = (
      select f.connection_id from federated_identities f where f.user_id = users.id
      order by f.created_at, f.connection_id limit 1)
    where provider in ('oidc', 'saml')`.execute(db);
  await addFlag(db, 'connections', 'jit_any_domain');
  await orgTable(db, 'sign_up_requests', 'token_hash')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .$call(lifespan)
    .execute();
  await expiryIndex(db, 'sign_up_requests_expires', 'sign_up_requests');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['sign_up_requests']);
  await db.schema.alterTable('connections').dropColumn('jit_any_domain').execute();
  await db.schema.alterTable('users').dropColumn('origin_connection').execute();
  await db.schema.alterTable('users').dropColumn('origin').execute();
}
