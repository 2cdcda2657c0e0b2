import { randomBytes } from 'node:crypto';
import { createClient } from '../domain/clients.js';
import type { Deps } from '../domain/context.js';
import { createOrg, findOrg } from '../domain/orgs.js';
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
  if (!deps.config.loopback || (await findOrg(deps.db, 'acme'))) return null;
  const ownerEmail = 'owner@acme.test';
  const ownerPassword = randomBytes(12).toString('base64url');
  const { org, issuer } = await createOrg(deps, { slug: 'acme', name: 'Acme', ownerEmail, ownerPassword });
  const { client, secret } = await createClient(
    deps,
    org,
    { name: 'Demo machine client', kind: 'confidential', redirectUris: [] },
    SYSTEM,
  );
  return { issuer, ownerEmail, ownerPassword, clientId: client.id, clientSecret: secret as string };
}
