import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { lifespan, required, singleUse, timestamps } from '../src/storage/migrations/column-parts.js';
import {
  addedColumns,
  addFlag,
  addWithDefault,
  dropTables,
  expiryIndex,
  keyedTable,
  linkTable,
  orgTable,
  tableIndex,
} from '../src/storage/migrations/table-parts.js';

/**
 * Migrations that have already run are written with storage/migrations/table-parts.ts: these are the
 * statements its parts made when they did, on both dialects, so that no change to a part goes unseen.
 */
const DIALECTS = {
  sqlite: { adapter: SqliteAdapter, introspector: SqliteIntrospector, compiler: SqliteQueryCompiler },
  postgres: { adapter: PostgresAdapter, introspector: PostgresIntrospector, compiler: PostgresQueryCompiler },
};

/** A database that runs nothing and records the SQL of every statement it is given. */
function recording(dialect: keyof typeof DIALECTS): { db: Kysely<unknown>; statements: string[] } {
  const { adapter, introspector, compiler } = DIALECTS[dialect];
  const statements: string[] = [];
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new adapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new introspector(db),
      createQueryCompiler: () => new compiler(),
    },
    log: (event) => {
      statements.push(event.query.sql);
    },
  });
  return { db, statements };
}

for (const dialect of Object.keys(DIALECTS) as (keyof typeof DIALECTS)[]) {
  describe(`migrations' table parts make the statements they always made (${dialect})`, () => {
    test('an org table with its own id, created and updated', () => {
      const { db } = recording(dialect);
      const statement = orgTable(db, 'tenants').addColumn('name', 'text').$call(timestamps).compile();
      assert.equal(
        statement.sql,
        'create table "tenants" ("id" text primary key, "org_id" text not null references "organizations" ("id") on delete cascade, "name" text, "created_at" bigint not null, "updated_at" bigint not null)',
      );
    });

    test('an org table keyed by another column, with a lifespan', () => {
      const { db } = recording(dialect);
      const statement = orgTable(db, 'profile_keys', 'key_hash').$call(lifespan).compile();
      assert.equal(
        statement.sql,
        'create table "profile_keys" ("key_hash" text primary key, "org_id" text not null references "organizations" ("id") on delete cascade, "created_at" bigint not null, "expires_at" bigint not null)',
      );
    });

    test('a keyed table without an org, its rows single-use', () => {
      const { db } = recording(dialect);
      const statement = keyedTable(db, 'federation_requests', 'key_hash').$call(singleUse).compile();
      assert.equal(
        statement.sql,
        'create table "federation_requests" ("key_hash" text primary key, "created_at" bigint not null, "expires_at" bigint not null, "used_at" bigint)',
      );
    });

    test('required columns, not null, in the order given', () => {
      const { db } = recording(dialect);
      const statement = db.schema
        .createTable('login_attempts')
        .$call(required({ key: 'text', window_start: 'bigint', attempts: 'integer' }))
        .addPrimaryKeyConstraint('login_attempts_pk', ['key', 'window_start'])
        .compile();
      assert.equal(
        statement.sql,
        'create table "login_attempts" ("key" text not null, "window_start" bigint not null, "attempts" integer not null, constraint "login_attempts_pk" primary key ("key", "window_start"))',
      );
    });

    test('a link table: its references, then its own columns, then the pair as its key', () => {
      const { db } = recording(dialect);
      const statement = linkTable(db, 'user_roles', { user_id: 'users.id', role_id: 'roles.id' })
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .compile();
      assert.equal(
        statement.sql,
        'create table "user_roles" ("user_id" text not null references "users" ("id") on delete cascade, "role_id" text not null references "roles" ("id") on delete cascade, "created_at" bigint not null, constraint "user_roles_pk" primary key ("user_id", "role_id"))',
      );
    });

    test('the expiry index, a flag, and dropping tables', async () => {
      const { db, statements } = recording(dialect);
      await expiryIndex(db, 'profile_keys_expiry', 'profile_keys');
      await addFlag(db, 'users', 'disabled');
      await dropTables(db, ['passkey_challenges', 'passkeys']);
      assert.deepEqual(statements, [
        'create index "profile_keys_expiry" on "profile_keys" ("expires_at")',
        'alter table "users" add column "disabled" integer default 0 not null',
        'drop table if exists "passkey_challenges"',
        'drop table if exists "passkeys"',
      ]);
    });

    test('added columns: up adds them in order, down drops them in reverse; a column with a default', async () => {
      const { db, statements } = recording(dialect);
      const added = addedColumns({
        authorization_requests: { nonce: 'text' },
        oauth_sessions: { auth_time: 'bigint' },
      });
      await added.up(db);
      await added.down(db);
      await addWithDefault(db, 'signing_keys', 'alg', 'text', 'RS256');
      assert.deepEqual(statements, [
        'alter table "authorization_requests" add column "nonce" text',
        'alter table "oauth_sessions" add column "auth_time" bigint',
        'alter table "oauth_sessions" drop column "auth_time"',
        'alter table "authorization_requests" drop column "nonce"',
        `alter table "signing_keys" add column "alg" text default 'RS256' not null`,
      ]);
    });

    test('an index on one column, on several in their order, and a unique one', async () => {
      const { db, statements } = recording(dialect);
      await tableIndex(db, 'scim_directories_org', 'scim_directories', ['org_id']);
      await tableIndex(db, 'scim_users_order', 'scim_users', ['directory_id', 'created_at', 'user_id']);
      await tableIndex(db, 'scim_users_user_name', 'scim_users', ['directory_id', 'user_name_key'], {
        unique: true,
      });
      assert.deepEqual(statements, [
        'create index "scim_directories_org" on "scim_directories" ("org_id")',
        'create index "scim_users_order" on "scim_users" ("directory_id", "created_at", "user_id")',
        'create unique index "scim_users_user_name" on "scim_users" ("directory_id", "user_name_key")',
      ]);
    });
  });
}
