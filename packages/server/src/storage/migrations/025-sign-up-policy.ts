import { type Kysely, sql } from 'kysely';
import { addWithDefault } from './table-parts.js';

/**
 * An org's sign-up policy (DESIGN §16): `sign_up` is `open`, `invite_only` or `domains`, and
 * `sign_up_domains` the JSON array of email domains `domains` lets sign up. It replaces the
 * `allow_signup` flag: an org that had sign-up turned off becomes `invite_only`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addWithDefault(db, 'organizations', 'sign_up', 'text', 'open');
  await addWithDefault(db, 'organizations', 'sign_up_domains', 'text', '[]');
  await sql`update organizations set sign_up = 'invite_only' where allow_signup = 0`.execute(db);
  await db.schema.alterTable('organizations').dropColumn('allow_signup').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await addWithDefault(db, 'organizations', 'allow_signup', 'integer', 1);
  await sql`update organizations set allow_signup = 0 where sign_up = 'invite_only'`.execute(db);
  await db.schema.alterTable('organizations').dropColumn('sign_up_domains').execute();
  await db.schema.alterTable('organizations').dropColumn('sign_up').execute();
}
