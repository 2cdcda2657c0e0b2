import { type Kysely, sql } from 'kysely';
import { belongsTo, lifespan, required } from './column-parts.js';
import { dropTables, expiryIndex, orgTable, tableIndex } from './table-parts.js';

/**
 * Passkeys (DESIGN §12): a user's WebAuthn credentials, one row each, scoped to the org whose host
 * is their relying party. The public key (COSE, base64url) is all the server keeps of the key; the
 * signature counter, the authenticator's AAGUID, whether the credential is synced (`multiDevice`)
 * and backed up are kept as the authenticator reported them. A credential id is unique within an
 * org: a second registration of the same credential is refused.
 *
 * `passkey_challenges` holds the challenge of each ceremony in progress, as its SHA-256 only: short
 * lived, single use (the row is deleted when it is answered), for one purpose, bound to the browser
 * that asked (the SHA-256 of its CSRF cookie value) and, when registering, to the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'passkeys')
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .$call(
      required({
        credential_id: 'text',
        public_key: 'text',
        sign_count: 'bigint',
        transports: 'text',
        aaguid: 'text',
      }),
    )
    .addColumn('device_type', 'text', (c) =>
      c.notNull().check(sql`device_type in ('singleDevice', 'multiDevice')`),
    )
    .$call(required({ backed_up: 'integer', name: 'text', created_at: 'bigint' }))
    .addColumn('last_used_at', 'bigint')
    .addUniqueConstraint('passkeys_org_credential', ['org_id', 'credential_id'])
    .execute();
  await tableIndex(db, 'passkeys_user', 'passkeys', ['user_id']);
  await orgTable(db, 'passkey_challenges', 'challenge_hash')
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('register', 'sign_in')`))
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .$call(lifespan)
    .execute();
  await expiryIndex(db, 'passkey_challenges_expires', 'passkey_challenges');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['passkey_challenges', 'passkeys']);
}
