// One Tessera under measurement: the tests' server (test/support/server.ts) in this process, on a
// throw-away SQLite file or PostgreSQL schema (TESSERA_TEST_DATABASE_URL, as for the tests), with the
// orgs the bench loads and a console token of the big org's owner.

import type { Config } from '../../packages/server/src/config/config.js';
import type { Deps } from '../../packages/server/src/domain/context.js';
import { createClient } from '../../packages/server/src/domain/directory/clients.js';
import { createOrg } from '../../packages/server/src/domain/directory/orgs.js';
import { openSession } from '../../packages/server/src/domain/sessions/sessions.js';
import { PASSWORD_SIGN_IN } from '../../packages/server/src/domain/sign-in/browser-sessions.js';
import { signSessionToken } from '../../packages/server/src/domain/tokens/user-tokens.js';
import { type Org, SYSTEM } from '../../packages/server/src/domain/types.js';
import type { Db } from '../../packages/server/src/storage/db.js';
import { findConsoleOrg } from '../../packages/server/src/storage/repos/orgs.js';
import { startServer } from '../../packages/server/test/support/server.js';

export interface Target {
  database: 'sqlite' | 'postgres';
  deps: Deps;
  /** The database itself, to load entries. */
  db: Db;
  /** The server's configuration: its store, secret and URL, for other processes on the same store. */
  config: Config;
  base: string;
  /** The org holding the big log, and the others sharing the table. */
  big: Org;
  others: Org[];
  /** A fresh console token of the big org's owner (tokens live 15 minutes). */
  token(): Promise<string>;
  close(): Promise<void>;
}

/** Starts Tessera on a fresh store with `otherOrgs` orgs beside the big one; no entries loaded yet. */
export async function startTarget(database: 'sqlite' | 'postgres', otherOrgs: number): Promise<Target> {
  const server = await startServer({ database, webhooks: false });
  try {
    const { deps } = server;
    const consoleOrg = await findConsoleOrg(deps.store);
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
      deps,
      db: server.db,
      config: server.config,
      base: server.base,
      big,
      others,
      async token() {
        const now = Date.now();
        const session = await deps.unitOfWork.run((trx) =>
          openSession(
            trx,
            consoleOrg,
            { userId: owner.id, clientId: client.id, ...PASSWORD_SIGN_IN, scope: 'openid events:read' },
            now,
          ),
        );
        const signer = await deps.keyRing.signer(consoleOrg.id);
        return (await signSessionToken(deps, signer, consoleOrg, session, now)).accessToken;
      },
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}
