import { type Kysely, sql } from 'kysely';
import { lifespan, required } from './column-parts.js';
import { dropTables, expiryIndex, orgTable, tableIndex } from './table-parts.js';

/**
 * Device authorizations (RFC 8628, DESIGN §20): one row per `POST /oauth/device_authorization`.
 * The device code is stored as its SHA-256 only; the user code (8 letters of a 20-consonant alphabet,
 * stored without its dash) is kept as it is, since the confirmation page shows it. A row is
 * `pending` until the person signed in on `{issuer}device` allows it (`approved`, with the OAuth
 * session opened for it in `session_id`) or denies it (`denied`); `redeemed_at` marks the one poll
 * that received the tokens. `interval_s` starts at 5 and grows by 5 at each `slow_down`;
 * `last_polled_at` is when the client last polled. Rows are purged a while after `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'device_authorizations')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    .$call(required({ user_code: 'text', scope: 'text' }))
    .addColumn('resources', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved', 'denied')`))
    .addColumn('user_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('interval_s', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .$call(lifespan)
    .addColumn('decided_at', 'bigint')
    .addColumn('redeemed_at', 'bigint')
    .execute();
  await tableIndex(db, 'device_authorizations_user_code', 'device_authorizations', ['org_id', 'user_code']);
  await expiryIndex(db, 'device_authorizations_expires', 'device_authorizations');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['device_authorizations']);
}
