import { type Kysely, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

/** The texts `q` searches, as `lower()` makes them: the email's key, first and last name (null as ''). */
export const SEARCHED = (user: string) =>
  sql.raw(
    `lower(${user}.email_key), lower(coalesce(${user}.first_name, '')), lower(coalesce(${user}.last_name, ''))`,
  );

/**
 * A substring index for `q` on the users list, on SQLite (PostgreSQL has migration 034's trigram
 * indexes). `user_search_rows` holds each user's three searched texts as SQLite's `lower()` makes them,
 * with the user's id, org and `created_at`, under a stable integer key (`row`, an INTEGER PRIMARY KEY:
 * VACUUM never renumbers it, unlike the implicit rowid of `users`, whose key is text). `user_search`
 * is an FTS5 index of those texts with the trigram tokenizer, case-sensitive, its content read from
 * `user_search_rows`.
 *
 * `q` matches a user when one of the lower-cased texts contains `q` lower-cased (users.ts `containing`:
 * `like` then compares letters a–z in either case and every other character exactly; the texts hold
 * no capitals A–Z). A phrase of `q`'s trigrams found in one text is exactly that text containing `q`,
 * so the index finds the same users as the `like` (for a `q` of three or more characters), and a
 * search needs not read `users` but for its page. Its `(org_id, created_at, user_id)` index lets a
 * search matching much of an org read the narrow rows in the list's order instead of the users.
 *
 * Triggers on `users` keep both in the same transaction as every insert, change of a searched text
 * and delete (by any writer: the server, the CLI, plain SQL, a cascade from a deleted org).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table user_search_rows (
    row integer primary key,
    user_id text not null unique,
    org_id text not null,
    created_at integer not null,
    email text not null,
    first_name text not null,
    last_name text not null
  )`.execute(db);
  await sql`create index user_search_rows_order on user_search_rows (org_id, created_at, user_id)`.execute(
    db,
  );
  await sql`create virtual table user_search using fts5(
    email, first_name, last_name,
    content = 'user_search_rows', content_rowid = 'row', tokenize = 'trigram case_sensitive 1'
  )`.execute(db);
  const row = (user: string) => sql.raw(`(select row from user_search_rows where user_id = ${user}.id)`);
  const indexNew = sql`insert into user_search (rowid, email, first_name, last_name)
    select row, email, first_name, last_name from user_search_rows where user_id = new.id;`;
  const unindexOld = sql`insert into user_search (user_search, rowid, email, first_name, last_name)
    select 'delete', row, email, first_name, last_name from user_search_rows where user_id = old.id;`;
  await sql`create trigger users_search_added after insert on users begin
    insert into user_search_rows (user_id, org_id, created_at, email, first_name, last_name)
      values (new.id, new.org_id, new.created_at, ${SEARCHED('new')});
    ${indexNew}
  end`.execute(db);
  await sql`create trigger users_search_changed after update of email_key, first_name, last_name on users
    when old.email_key is not new.email_key or old.first_name is not new.first_name
      or old.last_name is not new.last_name
  begin
    ${unindexOld}
    update user_search_rows set (email, first_name, last_name) = (select ${SEARCHED('new')})
      where row = ${row('old')};
    ${indexNew}
  end`.execute(db);
  await sql`create trigger users_search_removed after delete on users begin
    ${unindexOld}
    delete from user_search_rows where user_id = old.id;
  end`.execute(db);
  await sql`insert into user_search_rows (user_id, org_id, created_at, email, first_name, last_name)
    select id, org_id, created_at, ${SEARCHED('users')} from users order by created_at, id`.execute(db);
  await sql`insert into user_search (user_search) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  for (const trigger of ['users_search_added', 'users_search_changed', 'users_search_removed']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists user_search`.execute(db);
  await sql`drop table if exists user_search_rows`.execute(db);
}
