import { newId, newSecret, sha256 } from '../../crypto/random.js';
import type { Db } from '../../storage/db.js';
import { insertClientPromotions } from '../../storage/repos/client-promotions.js';
import { findClientWithSecret, insertClient } from '../../storage/repos/clients.js';
import { recordAudit } from '../audit/audit.js';
import type { Deps } from '../context.js';
import { fail } from '../errors.js';
import { clientSnapshot } from '../audit/snapshots.js';
import type { Actor, Client, GrantType, Org } from '../types.js';
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
  /** Confidential clients only: public clients of the same org whose user tokens it may exchange (RFC 8693). */
  promoteFrom?: string[];
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

/** The promotable clients must be public clients of the org, named to a confidential client. */
async function checkPromoteFrom(db: Db, org: Org, input: NewClient): Promise<string[]> {
  const sources = [...new Set(input.promoteFrom ?? [])];
  if (sources.length > 0 && input.kind !== 'confidential') {
    fail('invalid_body', 'only a confidential client can promote tokens of other clients');
  }
  for (const id of sources) {
    const found = await findClientWithSecret(db, org.id, id);
    if (!found) fail('invalid_body', `promote-from: no client "${id}" in this organization`);
    if (found?.client.kind !== 'public') fail('invalid_body', `promote-from: "${id}" is not a public client`);
  }
  return sources;
}

/** Creates a client; a confidential one gets a 256-bit secret, shown once and stored as its SHA-256. */
export async function createClient(
  deps: Deps,
  org: Org,
  input: NewClient,
  actor: Actor,
): Promise<{ client: Client; secret: string | null; promoteFrom: string[] }> {
  const name = checkName('name', input.name);
  const redirectUris = [...new Set(input.redirectUris.map(checkRedirectUri))];
  const grantTypes = checkGrants({ ...input, redirectUris });
  const promoteFrom = await checkPromoteFrom(deps.db, org, input);
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
    await insertClientPromotions(trx, client.id, promoteFrom, now);
    await recordAudit(trx, {
      orgId: org.id,
      entity: 'client',
      verb: 'created',
      actor,
      at: now,
      data: promoteFrom.length > 0 ? { ...clientSnapshot(client), promoteFrom } : clientSnapshot(client),
    });
  });
  return { client, secret, promoteFrom };
}
