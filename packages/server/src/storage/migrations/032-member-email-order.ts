import { type Kysely, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';
import { tableIndex } from './table-parts.js';

/**
 * The members list is ordered by the member's email (then id). It joined every membership of the
 * org to `users` to sort, and skipping to a middle page joined every member before it (10,000
 * members: 26-37 ms p95 in bench/users). Each membership now carries its user's `email_key`, kept by
 * triggers (set when the membership is made, changed with the user's address, by any process), and
 * `(org_id, email_key, user_id)` orders the list by itself: a page skips index entries, then joins
 * its own rows only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('email_key', 'text').execute();
  await sql`
    update memberships set email_key = (select u.email_key from users u where u.id = memberships.user_id)`.execute(
    db,
  );
  if (isPostgres(db)) {
    await sql`
      create function tessera_membership_email() returns trigger language plpgsql as $$
      begin
        new.email_key := (select u.email_key from users u where u.id = new.user_id);
        return new;
      end $$`.execute(db);
    await sql`
      create trigger memberships_email before insert or update of user_id on memberships
      for each row execute function tessera_membership_email()`.execute(db);
    await sql`
      create function tessera_member_email_changed() returns trigger language plpgsql as $$
      begin
        update memberships set email_key = new.email_key where user_id = new.id;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger users_member_email after update of email_key on users
      for each row when (old.email_key is distinct from new.email_key)
      execute function tessera_member_email_changed()`.execute(db);
  } else {
    await sql`
      create trigger memberships_email after insert on memberships
      begin
        update memberships set email_key = (select u.email_key from users u where u.id = new.user_id)
          where org_id = new.org_id and user_id = new.user_id;
      end`.execute(db);
    await sql`
      create trigger users_member_email after update of email_key on users
      when old.email_key is not new.email_key
      begin
        update memberships set email_key = new.email_key where user_id = new.id;
      end`.execute(db);
  }
  await tableIndex(db, 'memberships_org_email', 'memberships', ['org_id', 'email_key', 'user_id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('memberships_org_email').execute();
  if (isPostgres(db)) {
    await sql`drop trigger users_member_email on users`.execute(db);
    await sql`drop trigger memberships_email on memberships`.execute(db);
    await sql`drop function tessera_member_email_changed()`.execute(db);
    await sql`drop function tessera_membership_email()`.execute(db);
  } else {
    await sql`drop trigger users_member_email`.execute(db);
    await sql`drop trigger memberships_email`.execute(db);
  }
  await db.schema.alterTable('memberships').dropColumn('email_key').execute();
}
