import { type Kysely, sql } from 'kysely';

/**
 * An org's sign-up policy (DESIGN §16): `sign_up` is `open`, `invite_only` or `domains`, and
 * `sign_up_domains` the JSON array of email domains `domains` lets sign up. It replaces the
 * `allow_signup` flag: an org that had sign-up turned off becomes `invite_only`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('sign_up', 'text', (c) => c.notNull().defaultTo('open'))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('sign_up_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await sql`update organizations set sign_up = 'invite_only' where allow_signup = 0`.execute(db);
  await db.schema.alterTable('organizations').dropColumn('allow_signup').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('allow_signup', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`update organizations set allow_signup = 0 where sign_up = 'invite_only'`.execute(db);
  await db.schema.alterTable('organizations').dropColumn('sign_up_domains').execute();
  await db.schema.alterTable('organizations').dropColumn('sign_up').execute();
}
