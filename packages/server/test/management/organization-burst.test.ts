import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ORG_CREATIONS_PER_USER } from '../../src/domain/directory/orgs.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { makeUser, tokenRequest } from '../sign-in/support/fixtures.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, consoleOf, OWNER_PASSWORD } from './support/console.js';

const LIMITED = {
  error: 'rate_limited',
  error_detail: `at most ${ORG_CREATIONS_PER_USER} organizations an hour may be created per user; try again later`,
};

/**
 * Issue #25: one console user sending 40 POST /organizations at once used to hold every database
 * connection while RSA keys were generated inside the transactions (24 of 40 answered 503, other
 * orgs' requests waited seconds). Now the keys are generated before the transaction, one at a
 * time, and each console user may create ORG_CREATIONS_PER_USER orgs an hour.
 */
for (const database of storageSuite(
  'concurrent writes: the connection pool, the creation limit (an advisory lock on PostgreSQL, rate-limits.ts) and key inserts under contention',
)) {
  describe(`a burst of POST /organizations by one console user on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let steady: Awaited<ReturnType<typeof orgWithMachineClient>>;
    let console_: Awaited<ReturnType<typeof consoleOf>>;
    let burster: string;

    /** A console user with no org yet, and a console token of theirs. */
    const newConsoleUser = async (email: string) => {
      const consoleOrg = await findConsoleOrg(server.db);
      if (!consoleOrg) throw new Error('no console org');
      await makeUser(server.deps, consoleOrg, email, OWNER_PASSWORD);
      return console_.token(email);
    };

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      steady = await orgWithMachineClient(server.deps, 'steady');
      console_ = await consoleOf(server);
      burster = await newConsoleUser('burst@console.test');
    });
    after(async () => {
      if (!skip) await server.close();
    });

    test('40 at once: each 201 or 429 with Retry-After, never 503; every new org has its keys', {
      skip,
    }, async () => {
      const burst = Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call(server, 'POST', '/organizations', burster, { slug: `burst-${i}` }),
        ),
      );
      // Another org's discovery and a machine token, asked while the burst runs, are answered.
      const [discovery, token] = await Promise.all([
        fetch(`${steady.issuer}.well-known/openid-configuration`),
        tokenRequest(steady.issuer, {
          grant_type: 'client_credentials',
          client_id: steady.clientId,
          client_secret: steady.clientSecret,
        }),
      ]);
      const answers = await burst;
      assert.equal(discovery.status, 200);
      assert.equal(token.status, 200);

      assert.deepEqual(
        answers.map((a) => a.status).filter((s) => s !== 201 && s !== 429),
        [],
        'no answer other than 201 or 429',
      );
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status === 429);
      assert.equal(created.length, ORG_CREATIONS_PER_USER);
      assert.equal(refused.length, 40 - ORG_CREATIONS_PER_USER);
      for (const res of refused) {
        assert.deepEqual(res.body, LIMITED);
        const retryAfter = Number(res.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `${retryAfter}`);
      }

      for (const res of created) {
        const { id, slug } = res.body as { id: string; slug: string };
        const org = await server.db
          .selectFrom('organizations')
          .select('slug')
          .where('id', '=', id)
          .executeTakeFirst();
        assert.equal(org?.slug, slug);
        const keys = await server.db
          .selectFrom('signing_keys')
          .select(['kid', 'status'])
          .where('org_id', '=', id)
          .orderBy('status')
          .execute();
        assert.deepEqual(
          keys.map((k) => k.status),
          ['active', 'next'],
        );
        const jwks = await fetch(`${server.issuer(slug)}.well-known/jwks.json`);
        assert.equal(jwks.status, 200);
        const published = ((await jwks.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
        assert.deepEqual(published.sort(), keys.map((k) => k.kid).sort());
      }
      const mine = await call(server, 'GET', '/organizations?per_page=50', burster);
      assert.deepEqual(
        (mine.body as { slug: string }[]).map((o) => o.slug).sort(),
        created.map((c) => (c.body as { slug: string }).slug).sort(),
      );
      // The refused slugs were never created.
      const all = await server.db
        .selectFrom('organizations')
        .select('slug')
        .where('slug', 'like', 'burst-%')
        .execute();
      assert.equal(all.length, ORG_CREATIONS_PER_USER);
    });

    test('past the limit: 429 with Retry-After in the API error body, for that user only', {
      skip,
    }, async () => {
      const again = await call(server, 'POST', '/organizations', burster, { slug: 'one-more' });
      assert.equal(again.status, 429);
      assert.deepEqual(again.body, LIMITED);
      assert.match(again.headers.get('retry-after') ?? '', /^\d+$/);
      // A slug in use is still a conflict, checked before the limit.
      const taken = await call(server, 'POST', '/organizations', burster, { slug: 'steady' });
      assert.equal(taken.status, 409);
      const other = await newConsoleUser('calm@console.test');
      const res = await call(server, 'POST', '/organizations', other, { slug: 'calm' });
      assert.equal(res.status, 201);
    });
  });
}
