import { newId, newSecret, sha256 } from '../crypto/random.js';
import { insertClient } from '../storage/repos/clients.js';
import { recordAudit } from './audit.js';
import type { Deps } from './context.js';
import { fail } from './errors.js';
import { clientSnapshot } from './snapshots.js';
import type { Actor, Client, GrantType, Org } from './types.js';
import { checkName, checkRedirectUri } from './validate.js';

export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
];

export interface NewClient {
  name: string;
  kind: 'public' | 'confidential';
  redirectUris: string[];
  /** Defaults: public → code + refresh; confidential → client_credentials (+ code and refresh with redirect URIs). */
  grantTypes?: string[];
  firstParty?: boolean;
}

function defaultGrants(input: NewClient): GrantType[] {
  if (input.kind === 'public') return ['authorization_code', 'refresh_token'];
  return input.redirectUris.length > 0
    ? ['client_credentials', 'authorization_code', 'refresh_token']
    : ['client_credentials'];
}

function checkGrants(input: NewClient): GrantType[] {
  const grants = input.grantTypes?.length ? [...new Set(input.grantTypes)] : defaultGrants(input);
  for (const g of grants) {
    if (!GRANT_TYPES.includes(g as GrantType)) fail('invalid_body', `unknown grant type "${g}"`);
  }
  if (input.kind === 'public' && grants.includes('client_credentials')) {
    fail('invalid_body', 'a public client cannot use client_credentials');
  }
  if (grants.includes('authorization_code') && input.redirectUris.length === 0) {
    fail('invalid_body', 'authorization_code needs at least one redirect URI');
  }
  return grants as GrantType[];
}

/** Creates a client; a confidential one gets a 256-bit secret, shown once and stored as its SHA-256. */
export async function createClient(
  deps: Deps,
  org: Org,
  input: NewClient,
  actor: Actor,
): Promise<{ client: Client; secret: string | null }> {
  const name = checkName('name', input.name);
  const redirectUris = [...new Set(input.redirectUris.map(checkRedirectUri))];
  const grantTypes = checkGrants({ ...input, redirectUris });
  const now = Date.now();
  const client: Client = {
    id: newId('cli'),
    orgId: org.id,
    name,
    kind: input.kind,
    redirectUris,
    grantTypes,
    firstParty: input.firstParty ?? true,
    createdAt: now,
    updatedAt: now,
  };
  const secret = input.kind === 'confidential' ? newSecret('tcs_') : null;
  await deps.db.transaction().execute(async (trx) => {
    await insertClient(trx, client, secret === null ? null : sha256(secret));
    await recordAudit(trx, {
      orgId: org.id,
      entity: 'client',
      verb: 'created',
      actor,
      at: now,
      data: clientSnapshot(client),
    });
  });
  return { client, secret };
}
