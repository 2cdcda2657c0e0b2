import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_URL } from './environment.js';

/**
 * Every PostgreSQL test server gets a schema of its own (through the connection's search_path),
 * so test files can run in parallel against the one `test` database.
 */
export async function createPostgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await query(`create schema ${schema}`);
  const url = new URL(POSTGRES_URL);
  // No wait for the WAL's flush at each commit: what a test checks is what other connections see, which is
  // the same; only a crash of the PostgreSQL server itself could lose the last commits, and no test does that.
  url.searchParams.set('options', `-c search_path=${schema} -c synchronous_commit=off`);
  return { url: url.toString(), drop: () => query(`drop schema if exists ${schema} cascade`) };
}

async function query(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
