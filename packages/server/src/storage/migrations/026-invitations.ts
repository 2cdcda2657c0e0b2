import { type Kysely, sql } from 'kysely';
import { lifespan, required } from './column-parts.js';
import { dropTables, orgTable, tableIndex } from './table-parts.js';

/**
 * Invitations (DESIGN §16): an owner invites an address to be a user of the org (`kind` `user`)
 * or a console member of it with a role (`kind` `member`, accepted on the console's pages). A `user`
 * invitation may carry end-user roles (`roles`, a JSON array of `rol_` ids; `[]` otherwise). The
 * one-time link's token is stored as its SHA-256 only. An invitation is pending until it is
 * accepted (`accepted_at`, by `accepted_by`), withdrawn (`revoked_at`: DELETE keeps the row so the
 * link can say it was withdrawn) or past `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'invitations')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('user', 'member')`))
    .$call(required({ email: 'text', email_key: 'text' }))
    .addColumn('role', 'text', (c) => c.check(sql`role is null or role in ('owner', 'member')`))
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('mailed', 'integer', (c) => c.notNull())
    .$call(lifespan)
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_by', 'text')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await tableIndex(db, 'invitations_org', 'invitations', ['org_id', 'created_at', 'id']);
  await tableIndex(db, 'invitations_org_email', 'invitations', ['org_id', 'kind', 'email_key']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['invitations']);
}
