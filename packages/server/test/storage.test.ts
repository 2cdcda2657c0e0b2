import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createClient } from '../src/domain/directory/clients.js';
import { createOrg, findOrg, requireOrg } from '../src/domain/directory/orgs.js';
import { insertUserWithTenant, prepareUser } from '../src/domain/directory/users.js';
import { ServiceError } from '../src/domain/errors.js';
import { publicJwks, rotateKeys } from '../src/domain/keys/keys.js';
import { SYSTEM } from '../src/domain/types.js';
import type { Runtime } from '../src/runtime.js';
import { compiledOnce } from '../src/storage/compiled-once.js';
import { openStore } from '../src/storage/db.js';
import { isDatabaseUnavailable } from '../src/storage/unavailable.js';
import { databaseSkip, storageSuite } from './support/databases.js';
import { postgresSkip } from './support/environment.js';
import { migratedPostgresSchema } from './support/migrated-stores.js';
import { openTestRuntime } from './support/runtime.js';

/** One suite, run on both databases: what is stored, and what is refused. */
for (const database of storageSuite(
  'the storage suite: constraints (case-insensitive email keys), rollbacks, sealed keys and the audit index on each dialect',
)) {
  describe(`storage on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let rt: Runtime;
    before(async () => {
      if (!skip) rt = await openTestRuntime(database);
    });
    after(async () => {
      if (!skip) await rt.close();
    });

    const audit = (orgId: string) =>
      rt.db.selectFrom('audit_events').selectAll().where('org_id', '=', orgId).orderBy('id').execute();

    test('an org is stored with its owner, two published keys and its audit entries', { skip }, async () => {
      const { org, issuer, owner } = await createOrg(rt.deps, {
        slug: 'acme',
        name: 'Acme',
        ownerEmail: 'Owner@Acme.test',
        ownerPassword: 'correct horse battery',
      });
      assert.match(org.id, /^org_[0-9a-z]{20}$/);
      assert.equal(issuer, 'http://acme.localhost:4000/');
      assert.match(owner.id, /^usr_/);
      assert.deepEqual(await findOrg(rt.db, 'acme'), org);
      assert.deepEqual(await findOrg(rt.db, org.id), org);

      const jwks = await publicJwks(rt.db, org.id);
      assert.equal(jwks.keys.length, 2, 'the active key and the pre-published next key');
      for (const key of jwks.keys) {
        assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
      }

      const entries = await audit(org.id);
      assert.deepEqual(
        entries.map((e) => e.key),
        ['organization.created', 'membership.created'],
      );
      assert.deepEqual(JSON.parse(entries[1]?.data ?? '{}'), {
        orgId: org.id,
        userId: owner.id,
        email: 'Owner@Acme.test',
        role: 'owner',
      });
      assert.equal(entries[0]?.actor_kind, 'system');
    });

    test('private keys are sealed at rest', { skip }, async () => {
      const rows = await rt.db.selectFrom('signing_keys').select(['private_key', 'public_jwk']).execute();
      assert.ok(rows.length >= 4);
      for (const row of rows) {
        assert.match(row.private_key, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
        assert.doesNotMatch(row.private_key, /PRIVATE KEY/);
        assert.equal('d' in JSON.parse(row.public_jwk), false);
      }
    });

    test('a duplicate slug is a conflict and stores nothing', { skip }, async () => {
      const before = await rt.db.selectFrom('organizations').select('id').execute();
      await assert.rejects(
        createOrg(rt.deps, { slug: 'acme', ownerEmail: 'owner@acme.test', ownerPassword: null }),
        (e: unknown) => e instanceof ServiceError && e.code === 'conflict' && /slug "acme"/.test(e.message),
      );
      assert.equal((await rt.db.selectFrom('organizations').select('id').execute()).length, before.length);
    });

    test('emails are unique per org, whatever their case; the same email may exist in another org', {
      skip,
    }, async () => {
      const acme = await requireOrg(rt.db, 'acme');
      const { org: other } = await createOrg(rt.deps, {
        slug: 'globex',
        ownerEmail: 'owner@acme.test',
        ownerPassword: null,
      });
      const ada = await prepareUser({ email: 'ada@example.com', password: 'analytical engine' });
      const created = await rt.db.transaction().execute((t) => insertUserWithTenant(t, acme.id, ada, SYSTEM));
      assert.match(created.tenant.id, /^tnt_/);
      const again = await prepareUser({ email: 'ADA@example.com', password: 'analytical engine' });
      await assert.rejects(
        rt.db.transaction().execute((t) => insertUserWithTenant(t, acme.id, again, SYSTEM)),
        (e: unknown) => e instanceof ServiceError && e.code === 'conflict',
      );
      await rt.db.transaction().execute((t) => insertUserWithTenant(t, other.id, again, SYSTEM));

      const stored = await rt.db
        .selectFrom('users')
        .select(['email', 'password_hash'])
        .where('id', '=', created.user.id)
        .executeTakeFirstOrThrow();
      assert.match(stored.password_hash ?? '', /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const entries = (await audit(acme.id)).filter((e) => e.entity === 'user');
      assert.equal(entries.length, 1, 'the refused duplicate left no audit entry');
      const snapshot = JSON.parse(entries[0]?.data ?? '{}');
      assert.deepEqual(Object.keys(snapshot), [
        'id',
        'email',
        'firstName',
        'lastName',
        'picture',
        'provider',
        'disabled',
        'emailVerified',
        'middleName',
        'nickname',
        'preferredUsername',
        'profile',
        'website',
        'gender',
        'birthdate',
        'zoneinfo',
        'locale',
        'phoneNumber',
        'phoneNumberVerified',
        'address',
        'createdAt',
      ]);
      assert.doesNotMatch(entries[0]?.data ?? '', /\$argon2/);
    });

    test('a change and its audit entry roll back together', { skip }, async () => {
      const acme = await requireOrg(rt.db, 'acme');
      const countBefore = (await audit(acme.id)).length;
      const prepared = await prepareUser({ email: 'rollback@example.com', password: 'long enough' });
      await assert.rejects(
        rt.db.transaction().execute(async (t) => {
          await insertUserWithTenant(t, acme.id, prepared, SYSTEM);
          throw new Error('fail after the write');
        }),
        /fail after the write/,
      );
      assert.equal((await audit(acme.id)).length, countBefore);
      assert.equal(
        await rt.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'rollback@example.com')
          .executeTakeFirst(),
        undefined,
      );
    });

    test('a confidential client secret is stored only as its SHA-256 and never audited', {
      skip,
    }, async () => {
      const acme = await requireOrg(rt.db, 'acme');
      const { client, secret } = await createClient(
        rt.deps,
        acme,
        { name: 'Billing', kind: 'confidential', redirectUris: [] },
        SYSTEM,
      );
      assert.match(secret ?? '', /^tcs_[\w-]{43}$/);
      const row = await rt.db
        .selectFrom('clients')
        .selectAll()
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow();
      assert.notEqual(row.secret_hash, secret);
      assert.equal(row.secret_hash?.length, 43);
      const entry = (await audit(acme.id)).find((e) => e.key === 'client.created');
      assert.deepEqual(JSON.parse(entry?.data ?? '{}'), {
        id: client.id,
        name: 'Billing',
        kind: 'confidential',
        redirectUris: [],
        postLogoutRedirectUris: [],
        grantTypes: ['client_credentials'],
        firstParty: true,
        allowedOrigins: null,
        secretIssuedAt: new Date(client.createdAt).toISOString(),
        createdAt: new Date(client.createdAt).toISOString(),
      });
      assert.equal(JSON.stringify(await audit(acme.id)).includes(secret ?? '-'), false);
    });

    test('rotation signs with the pre-published key and keeps the old one published', { skip }, async () => {
      const acme = await requireOrg(rt.db, 'acme');
      const before = (await publicJwks(rt.db, acme.id)).keys.map((k) => k.kid);
      const oldSigner = await rt.deps.keyRing.signer(acme.id);
      const kid = await rotateKeys(rt.deps, acme, SYSTEM);
      assert.notEqual(kid, oldSigner.kid);
      assert.ok(before.includes(kid), 'the new signing key was already published');
      assert.equal((await rt.deps.keyRing.signer(acme.id)).kid, kid);
      const after = (await publicJwks(rt.db, acme.id)).keys.map((k) => k.kid);
      assert.equal(after.length, 3);
      assert.equal(after[0], kid, 'the signing key comes first');
      assert.ok(after.includes(oldSigner.kid), 'the retired key stays published');
      const entry = (await audit(acme.id)).find((e) => e.key === 'signing_key.updated');
      assert.deepEqual(JSON.parse(entry?.changes ?? '{}'), { activeKid: kid, retiredKid: oldSigner.kid });
    });

    test('audit entries read newest first through the (org, at, id) index', { skip }, async () => {
      const acme = await requireOrg(rt.db, 'acme');
      const rows = await rt.db
        .selectFrom('audit_events')
        .select(['id', 'at'])
        .where('org_id', '=', acme.id)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const ids = rows.map((r) => r.id);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'ids sort in the order entries were written');
      assert.equal(typeof rows[0]?.at, 'number');
    });

    test("a statement compiled once binds each call's values where its stand-ins were, in and out of a transaction", {
      skip,
    }, async () => {
      const rename = compiledOnce(['name', 'slug', 'at'], (db, v) =>
        db
          .updateTable('organizations')
          .set({ name: v.name, updated_at: v.at })
          .where('slug', '=', v.slug)
          .where('is_console', '=', 0)
          .returning(['slug', 'name', 'updated_at']),
      );
      await createOrg(rt.deps, { slug: 'once', ownerEmail: 'owner@acme.test', ownerPassword: null });
      assert.deepEqual(await rename(rt.db, { name: 'Once', slug: 'once', at: 1_000 }), [
        { slug: 'once', name: 'Once', updated_at: 1_000 },
      ]);
      // The same statement inside a transaction (another executor over the same dialect), then a miss.
      const inside = await rt.db
        .transaction()
        .execute((trx) => rename(trx, { name: 'Once again', slug: 'once', at: 2_000 }));
      assert.deepEqual(inside, [{ slug: 'once', name: 'Once again', updated_at: 2_000 }]);
      assert.deepEqual(await rename(rt.db, { name: 'Nobody', slug: 'nobody', at: 3_000 }), []);
      const stored = await rt.db
        .selectFrom('organizations')
        .select(['name', 'updated_at'])
        .where('slug', '=', 'once')
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { name: 'Once again', updated_at: 2_000 });

      // A stand-in the builder writes into the SQL itself cannot be bound: refused when first built.
      const inlined = compiledOnce(['label'], (db, v) =>
        db.selectFrom('organizations').select(sql.lit(v.label).as('label')),
      );
      await assert.rejects(inlined(rt.db, { label: 'x' }), /label did not become a bound parameter/);
    });
  });
}

describe('migrations on a PostgreSQL database shared with other schemas', async () => {
  const skip = await postgresSkip();
  test('schemas migrate while others beside them are created and dropped', { skip }, async () => {
    // Four at a time, each opening (migrating) and closing (dropping its schema) in turn: a migration
    // must never read another schema's tables, which vanish mid-query here.
    const errors: string[] = [];
    const worker = async () => {
      for (let i = 0; i < 5; i++) {
        try {
          const rt = await openTestRuntime('postgres');
          await rt.close();
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    assert.deepEqual(errors, []);
  });

  test('the migration lock is held by the migration’s transaction and ends with it (PgBouncer in transaction mode keeps that connection for it)', {
    skip,
  }, async () => {
    const rt = await openTestRuntime('postgres');
    try {
      const { adapter } = rt.db.getExecutor();
      // Kysely's key, 3853314791062309107: PostgreSQL shows a bigint key as its high and low halves.
      const key = 3853314791062309107n;
      const heldBy = async (pid: number) =>
        (
          await sql<{ state: string }>`select a.state from pg_locks l join pg_stat_activity a using (pid)
            where l.locktype = 'advisory' and l.granted and l.pid = ${pid}
              and l.classid::bigint = ${String(key >> 32n)}::bigint and l.objid::bigint = ${String(key & 0xffffffffn)}::bigint`.execute(
            rt.db,
          )
        ).rows.map((r) => r.state);
      await rt.db.connection().execute(async (db) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
        const pid = (rows[0] as { pid: number }).pid;
        const options = { lockTable: 'tessera_migrations_lock', lockRowId: 'migration_lock' };
        await adapter.acquireMigrationLock(db, options);
        assert.deepEqual(await heldBy(pid), ['idle in transaction'], 'held inside a transaction');
        // The migrator's own transaction joins it; its COMMIT (or ROLLBACK) ends both.
        await sql`commit`.execute(db);
        await adapter.releaseMigrationLock(db, options);
        assert.deepEqual(await heldBy(pid), [], 'released with the transaction');
      });
    } finally {
      await rt.close();
    }
  });

  test('a second schema migrates fully while another migrated schema exists', { skip }, async () => {
    const first = await openTestRuntime('postgres');
    const second = await openTestRuntime('postgres');
    try {
      const applied = (rt: Runtime) =>
        rt.db
          .selectFrom('tessera_migrations' as never)
          .select('name' as never)
          .orderBy('name' as never)
          .execute()
          .then((rows) => rows.map((r) => (r as { name: string }).name));
      const names = await applied(first);
      assert.equal(names[0], '001-foundation');
      assert.deepEqual(await applied(second), names, 'every migration ran in the second schema too');
      const org = await createOrg(second.deps, {
        slug: 'second',
        name: 'Second',
        ownerEmail: 'o@second.test',
        ownerPassword: 'correct horse battery',
      });
      assert.equal(await findOrg(first.db, 'second'), null, 'the schemas share nothing');
      assert.deepEqual(await findOrg(second.db, 'second'), org.org);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe('named prepared statements on PostgreSQL (TESSERA_DB_PREPARED_STATEMENTS)', async () => {
  const skip = await postgresSkip();
  const slugOf = compiledOnce(['slug'], (db, v) =>
    db.selectFrom('organizations').select(['slug', 'name']).where('slug', '=', v.slug),
  );
  const prepared = async (db: Parameters<typeof slugOf>[0]) =>
    (
      await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements`.execute(db)
    ).rows;
  const namesIn = async (db: Parameters<typeof slugOf>[0]) => (await prepared(db)).map((r) => r.name);
  /** What the statement threw when it ran inside a transaction (null: it answered). */
  const failureInTransaction = (db: Parameters<typeof slugOf>[0]): Promise<unknown> =>
    db
      .transaction()
      .execute((trx) => slugOf(trx, { slug: 'nobody' }))
      .then(
        () => null,
        (error: unknown) => error,
      );
  /** A store of one connection on a migrated schema, so every statement meets the same session. */
  const oneConnection = async (named: boolean) => {
    const schema = await migratedPostgresSchema();
    const warnings: string[] = [];
    const store = openStore({
      databaseUrl: schema.url,
      dataDir: '/nonexistent',
      poolSize: 1,
      prepared: named,
      warn: (line) => warnings.push(line),
    });
    return {
      db: store.db,
      warnings,
      close: async () => {
        await store.close();
        await schema.release();
      },
    };
  };

  test('a statement compiled once is parsed once per connection under its name; off, nothing outlives it', {
    skip,
  }, async () => {
    const on = await oneConnection(true);
    try {
      assert.deepEqual(await slugOf(on.db, { slug: 'nobody' }), []);
      assert.deepEqual(await slugOf(on.db, { slug: 'nobody' }), []);
      const rows = await prepared(on.db);
      assert.equal(rows.length, 1);
      assert.match(rows[0]?.name ?? '', /^tessera_\d+$/);
      assert.equal(
        rows[0]?.statement,
        '/* prepared */ select "slug", "name" from "organizations" where "slug" = $1',
      );
    } finally {
      await on.close();
    }
    const off = await oneConnection(false);
    try {
      assert.deepEqual(await slugOf(off.db, { slug: 'nobody' }), []);
      assert.deepEqual(await prepared(off.db), []);
    } finally {
      await off.close();
    }
  });

  test('a named statement its connection lost is sent again unnamed, or inside a transaction fails as unavailable; reported once, prepared again under a new name', {
    skip,
  }, async () => {
    const store = await oneConnection(true);
    try {
      await slugOf(store.db, { slug: 'nobody' });
      const [first] = await prepared(store.db);
      // What a pooler in transaction mode does: the next statement meets a session without it.
      await sql`deallocate all`.execute(store.db);
      assert.deepEqual(await slugOf(store.db, { slug: 'nobody' }), []);
      assert.deepEqual(await prepared(store.db), [], 'sent again unnamed');
      assert.deepEqual(await slugOf(store.db, { slug: 'nobody' }), []);
      assert.deepEqual(await namesIn(store.db), [`${first?.name}_1`]);
      await sql`deallocate all`.execute(store.db);
      const lost = await failureInTransaction(store.db);
      assert.equal((lost as { code?: string } | null)?.code, '26000');
      assert.equal(isDatabaseUnavailable(lost), true, 'answered 503, to be tried again');
      assert.deepEqual(await slugOf(store.db, { slug: 'nobody' }), []);
      assert.deepEqual(await namesIn(store.db), [`${first?.name}_2`]);
      assert.deepEqual(store.warnings, [
        'a prepared statement was not found on its connection: DATABASE_URL goes through a pooler in transaction mode; set TESSERA_DB_PREPARED_STATEMENTS=off (or TESSERA_DB_LISTEN_URL, which turns them off)',
      ]);
    } finally {
      await store.close();
    }
  });

  test('a column added to a table a prepared statement reads leaves it working, a column it reads changed is prepared again (inside a transaction: unavailable); a statement with * is refused when built', {
    skip,
  }, async () => {
    const store = await oneConnection(true);
    try {
      await slugOf(store.db, { slug: 'nobody' });
      await sql`alter table organizations add column added_later text`.execute(store.db);
      assert.deepEqual(await slugOf(store.db, { slug: 'nobody' }), []);
      // A rolling upgrade's migration changes a column the statement returns.
      await sql`alter table organizations alter column name type varchar(500)`.execute(store.db);
      const changed = await failureInTransaction(store.db);
      assert.equal((changed as { code?: string } | null)?.code, '0A000');
      assert.equal(isDatabaseUnavailable(changed), true, 'answered 503, to be tried again');
      assert.deepEqual(await slugOf(store.db, { slug: 'nobody' }), []);
      await sql`alter table organizations alter column name type text`.execute(store.db);
      assert.deepEqual(await slugOf(store.db, { slug: 'nobody' }), [], 'outside a transaction: sent again');
      const everything = compiledOnce(['slug'], (db, v) =>
        db.selectFrom('organizations').selectAll().where('slug', '=', v.slug),
      );
      await assert.rejects(everything(store.db, { slug: 'nobody' }), /names the columns it reads, not \*/);
    } finally {
      await store.close();
    }
  });
});
