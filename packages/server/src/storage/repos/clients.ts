import type { Client, GrantType } from '../../domain/types.js';
import type { Db } from '../db.js';
import type { ClientsTable } from '../schema.js';

const toClient = (r: ClientsTable): Client => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  kind: r.kind,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  grantTypes: JSON.parse(r.grant_types) as GrantType[],
  firstParty: r.first_party === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertClient(db: Db, c: Client, secretHash: string | null): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id: c.id,
      org_id: c.orgId,
      name: c.name,
      kind: c.kind,
      secret_hash: secretHash,
      redirect_uris: JSON.stringify(c.redirectUris),
      grant_types: JSON.stringify(c.grantTypes),
      first_party: c.firstParty ? 1 : 0,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    })
    .execute();
}

/** The client and its stored secret hash, within one org. */
export async function findClientWithSecret(
  db: Db,
  orgId: string,
  id: string,
): Promise<{ client: Client; secretHash: string | null } | null> {
  const row = await db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ? { client: toClient(row), secretHash: row.secret_hash } : null;
}

/** What the client_credentials grant reads about a client. */
export interface MachineClientRow {
  client: Client;
  secretHash: string | null;
  activeKid: string | null;
}

/**
 * The client, its secret hash and its org's active signing key id in one query: the
 * client_credentials grant needs all three, and on PostgreSQL every query is a round trip.
 */
export async function findClientWithActiveKid(
  db: Db,
  orgId: string,
  id: string,
): Promise<MachineClientRow | null> {
  const row = await db
    .selectFrom('clients')
    .leftJoin('signing_keys', (join) =>
      join.onRef('signing_keys.org_id', '=', 'clients.org_id').on('signing_keys.status', '=', 'active'),
    )
    .selectAll('clients')
    .select('signing_keys.kid as active_kid')
    .where('clients.id', '=', id)
    .where('clients.org_id', '=', orgId)
    .executeTakeFirst();
  return row ? { client: toClient(row), secretHash: row.secret_hash, activeKid: row.active_kid } : null;
}
