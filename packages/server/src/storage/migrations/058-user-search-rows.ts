import { type Kysely, sql } from 'kysely';
import * as trigrams from './034-user-search-trigrams.js';
import { SEARCHED } from './057-user-search-index.js';
import { extensionSchema } from './extensions.js';
import { isPostgres } from './is-postgres.js';

/**
 * On PostgreSQL, what migration 057 made on SQLite: `user_search_rows` holds each user's three searched
 * texts as `lower()` makes them (the database's collation, as the list's own `lower()`), with the
 * user's id, org and `created_at`, kept by triggers on `users` in the same transaction (a bulk insert
 * adds its rows in one statement; a delete of the user deletes the row by its foreign key). `like`
 * on them is the users' `lower(…) like`, so a search reads these narrow rows instead of the users and
 * calls no `lower()` per row: the trigram indexes move here from `users` (migration 034's, where
 * `pg_trgm` is there to make them), and the `(org_id, created_at, user_id)` index lets a search
 * matching much of an org read them in the list's order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table user_search_rows (
    user_id text primary key references users (id) on delete cascade,
    org_id text not null,
    created_at bigint not null,
    email text not null,
    first_name text not null,
    last_name text not null
  )`.execute(db);
  await sql`create function users_search_added() returns trigger language plpgsql as $$
    begin
      insert into user_search_rows (user_id, org_id, created_at, email, first_name, last_name)
        select added.id, added.org_id, added.created_at, ${SEARCHED('added')} from added;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_search_added after insert on users
    referencing new table as added for each statement execute function users_search_added()`.execute(db);
  await sql`create function users_search_changed() returns trigger language plpgsql as $$
    begin
      update user_search_rows set (email, first_name, last_name) = (select ${SEARCHED('new')})
        where user_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_search_changed after update of email_key, first_name, last_name on users
    for each row when (old.email_key is distinct from new.email_key
      or old.first_name is distinct from new.first_name or old.last_name is distinct from new.last_name)
    execute function users_search_changed()`.execute(db);
  await sql`insert into user_search_rows (user_id, org_id, created_at, email, first_name, last_name)
    select users.id, users.org_id, users.created_at, ${SEARCHED('users')} from users`.execute(db);
  await sql`create index user_search_rows_order on user_search_rows (org_id, created_at, user_id)`.execute(
    db,
  );
  await trigrams.down(db);
  const schema = await extensionSchema(db, 'pg_trgm');
  if (schema === null) return;
  for (const column of ['email', 'first_name', 'last_name']) {
    await sql`create index ${sql.id(`user_search_rows_${column}`)} on user_search_rows
      using gin (${sql.ref(column)} ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop table user_search_rows`.execute(db);
  await sql`drop trigger users_search_added on users`.execute(db);
  await sql`drop function users_search_added()`.execute(db);
  await sql`drop trigger users_search_changed on users`.execute(db);
  await sql`drop function users_search_changed()`.execute(db);
  await trigrams.up(db);
}
