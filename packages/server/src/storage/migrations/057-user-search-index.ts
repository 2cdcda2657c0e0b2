import { type Kysely, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

/**
 * A substring index for `q` on the users list, on SQLite (PostgreSQL has migration 034's trigram
 * indexes): an FTS5 table with the trigram tokenizer over the three searched texts (the email's
 * lower-case key, first and last name), each row keyed by a stable integer. The key is
 * `user_search_rows.row`, an INTEGER PRIMARY KEY (which VACUUM never renumbers, unlike the implicit
 * rowid of `users`, whose key is text), beside the user's id and org.
 *
 * Triggers on `users` keep both in the same transaction as every insert, change of a searched text
 * and delete (by any writer: the server, the CLI, plain SQL, a cascade from a deleted org). The FTS
 * table stores no copy of the texts (contentless, with deletes by key): a search reads the rows it
 * finds and checks the very `lower(…) like` the list always used, so the index only narrows the rows
 * read and never changes what a search finds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table user_search_rows (
    row integer primary key,
    user_id text not null unique,
    org_id text not null
  )`.execute(db);
  await sql`create virtual table user_search using fts5(
    email, first_name, last_name,
    content = '', contentless_delete = 1, tokenize = 'trigram'
  )`.execute(db);
  const key = (user: string) => sql.raw(`(select row from user_search_rows where user_id = ${user}.id)`);
  const texts = (user: string) =>
    sql.raw(`${user}.email_key, coalesce(${user}.first_name, ''), coalesce(${user}.last_name, '')`);
  await sql`create trigger users_search_added after insert on users begin
    insert into user_search_rows (user_id, org_id) values (new.id, new.org_id);
    insert into user_search (rowid, email, first_name, last_name) values (${key('new')}, ${texts('new')});
  end`.execute(db);
  await sql`create trigger users_search_changed after update of email_key, first_name, last_name on users
    when old.email_key is not new.email_key or old.first_name is not new.first_name
      or old.last_name is not new.last_name
  begin
    delete from user_search where rowid = ${key('old')};
    insert into user_search (rowid, email, first_name, last_name) values (${key('new')}, ${texts('new')});
  end`.execute(db);
  await sql`create trigger users_search_removed after delete on users begin
    delete from user_search where rowid = ${key('old')};
    delete from user_search_rows where user_id = old.id;
  end`.execute(db);
  await sql`insert into user_search_rows (user_id, org_id) select id, org_id from users order by created_at, id`.execute(
    db,
  );
  await sql`insert into user_search (rowid, email, first_name, last_name)
    select k.row, u.email_key, coalesce(u.first_name, ''), coalesce(u.last_name, '')
    from user_search_rows k join users u on u.id = k.user_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  for (const trigger of ['users_search_added', 'users_search_changed', 'users_search_removed']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists user_search`.execute(db);
  await sql`drop table if exists user_search_rows`.execute(db);
}
