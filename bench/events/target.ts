// One Tessera under measurement: in this process, on a throw-away SQLite file or PostgreSQL schema,
// with the orgs the bench loads and a console token of the big org's owner.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../packages/server/src/config/config.js';
import { PASSWORD_SIGN_IN } from '../../packages/server/src/domain/browser-sessions.js';
import { createClient } from '../../packages/server/src/domain/clients.js';
import { createOrg } from '../../packages/server/src/domain/orgs.js';
import { openSession } from '../../packages/server/src/domain/sessions.js';
import { type Org, SYSTEM } from '../../packages/server/src/domain/types.js';
import { signSessionToken } from '../../packages/server/src/domain/user-tokens.js';
import { type RunningServer, serve } from '../../packages/server/src/server.js';
import { findConsoleOrg } from '../../packages/server/src/storage/repos/orgs.js';

export const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface Target {
  database: 'sqlite' | 'postgres';
  server: RunningServer;
  base: string;
  /** The org holding the big log, and the others sharing the table. */
  big: Org;
  others: Org[];
  /** A fresh console token of the big org's owner (tokens live 15 minutes). */
  token(): Promise<string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch {
    return false;
  }
}

/** Starts Tessera on a fresh store with `otherOrgs` orgs beside the big one; no entries loaded yet. */
export async function startTarget(database: 'sqlite' | 'postgres', otherOrgs: number): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-events-'));
  const schema = database === 'postgres' ? `bench_events_${randomBytes(6).toString('hex')}` : null;
  let databaseUrl: string | undefined;
  if (schema) {
    await adminQuery(`create schema ${schema}`);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const drop = async () => {
    if (schema) await adminQuery(`drop schema if exists ${schema} cascade`);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port),
      TESSERA_URL: `http://localhost:${port}`,
      TESSERA_DATA_DIR: dataDir,
      TESSERA_SECRET: randomBytes(32).toString('base64url'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const server = await serve(config, { seed: false, logLevel: 'silent', webhooks: false, print: () => {} });
    const { deps } = server;
    const consoleOrg = await findConsoleOrg(deps.db);
    if (!consoleOrg) throw new Error('no console org');
    const { client } = await createClient(
      deps,
      consoleOrg,
      { name: 'Bench console', kind: 'public', redirectUris: ['http://127.0.0.1:9/cb'] },
      SYSTEM,
    );
    const { org: big, owner } = await createOrg(deps, {
      slug: 'acme',
      ownerEmail: 'owner@acme.test',
      ownerPassword: 'bench password 1',
    });
    const others: Org[] = [];
    for (let i = 0; i < otherOrgs; i++) {
      const { org } = await createOrg(deps, {
        slug: `other-${i}`,
        ownerEmail: `owner@other-${i}.test`,
        ownerPassword: 'bench password 1',
      });
      others.push(org);
    }
    return {
      database,
      server,
      base: config.baseUrl,
      big,
      others,
      async token() {
        const now = Date.now();
        const session = await deps.db
          .transaction()
          .execute((trx) =>
            openSession(
              trx,
              consoleOrg,
              { userId: owner.id, clientId: client.id, ...PASSWORD_SIGN_IN, scope: 'openid' },
              now,
            ),
          );
        const signer = await deps.keyRing.signer(consoleOrg.id);
        return (await signSessionToken(deps, signer, consoleOrg, session, now)).accessToken;
      },
      async close() {
        await server.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}
