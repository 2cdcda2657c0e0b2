import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Deps } from '../domain/context.js';
import { createClient, createOrg, findOrg } from '../domain/directory/index.js';
import { ServiceError } from '../domain/errors.js';
import { SYSTEM } from '../domain/types.js';

export interface Seeded {
  issuer: string;
  ownerEmail: string;
  ownerPassword: string;
  clientId: string;
  clientSecret: string;
}

/**
 * On a fresh data dir in loopback development: a demo org, its owner and a confidential client,
 * so the first `npm start` has something to sign in to and a token to fetch.
 */
export async function seedDemo(deps: Deps): Promise<Seeded | null> {
  if (!deps.config.loopback || (await findOrg(deps.store, 'acme'))) return null;
  const ownerEmail = 'owner@acme.test';
  const ownerPassword = randomBytes(12).toString('base64url');
  let created: Awaited<ReturnType<typeof createOrg>>;
  try {
    created = await createOrg(deps, { slug: 'acme', name: 'Acme', ownerEmail, ownerPassword });
  } catch (error) {
    // Another process (a second node started at the same time on the same database) seeded it first.
    if (error instanceof ServiceError && error.code === 'conflict') return null;
    throw error;
  }
  const { org, issuer } = created;
  const { client, secret } = await createClient(
    deps,
    org,
    { name: 'Demo machine client', kind: 'confidential', redirectUris: [] },
    SYSTEM,
  );
  return { issuer, ownerEmail, ownerPassword, clientId: client.id, clientSecret: secret as string };
}

/** What the demo seed leaves for the person who started the server, and nowhere else. */
export interface DemoCredentials {
  issuer: string;
  console: string;
  owner: { email: string; password: string };
  client: { id: string; secret: string };
  curl: string;
}

/**
 * Writes the demo org's credentials to `<data dir>/demo-credentials.json`, readable by its owner
 * only: a log line must never hold a password or a secret, so the log names this file instead.
 */
export function writeDemoCredentials(
  config: Config,
  s: Seeded,
): { file: string; credentials: DemoCredentials } {
  const credentials: DemoCredentials = {
    issuer: s.issuer,
    console: `${config.baseUrl}/console/`,
    owner: { email: s.ownerEmail, password: s.ownerPassword },
    client: { id: s.clientId, secret: s.clientSecret },
    curl: `curl -s ${s.issuer}oauth/token -d grant_type=client_credentials -d client_id=${s.clientId} -d client_secret=${s.clientSecret}`,
  };
  mkdirSync(config.dataDir, { recursive: true });
  const file = join(config.dataDir, 'demo-credentials.json');
  // A file left by an earlier seed goes first: the mode applies only to a file being created.
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return { file, credentials };
}

/**
 * The demo owner's email and the credentials file that holds their password, while the data dir
 * has one: what the start-up banner prints so the console can be signed in to (never the password).
 */
export function demoLogin(config: Config): { email: string; credentials: string } | null {
  const file = join(config.dataDir, 'demo-credentials.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoCredentials>;
    return typeof saved.owner?.email === 'string' ? { email: saved.owner.email, credentials: file } : null;
  } catch {
    return null;
  }
}
