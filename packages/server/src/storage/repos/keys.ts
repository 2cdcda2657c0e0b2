import { sql } from 'kysely';
import type { KeyStatus, SigningAlgorithm, SigningKey } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { SigningKeysTable } from '../schema.js';
import { columnMap, json, lifespanColumns, textOf } from './column-map.js';
import { recordsOf } from './keyed-rows.js';
import { countRows } from './paged-rows.js';
import { insertOf } from './table-records.js';

const jwk = json<Record<string, unknown>>();

const keyColumns = columnMap<SigningKeysTable, SigningKey>()({
  kid: 'kid',
  org_id: 'orgId',
  status: 'status',
  public_jwk: ['publicJwk', jwk],
  private_key: 'sealedPrivateKey',
  ...lifespanColumns,
  alg: ['alg', textOf<SigningAlgorithm>()],
});
const toKey = keyColumns.toRecord;
const keys = recordsOf('signing_keys', toKey);

export const insertKey = insertOf('signing_keys', keyColumns);

export const findKeyByStatus = (
  store: Handle,
  orgId: string,
  status: KeyStatus,
  alg: SigningAlgorithm = 'RS256',
): Promise<SigningKey | null> => keys.recordWhere(store, { org_id: orgId, status, alg });

/** The kid of the org's active key of `alg` (RS256: the access-token key). */
export async function activeKid(
  store: Handle,
  orgId: string,
  alg: SigningAlgorithm = 'RS256',
): Promise<string | null> {
  return (await keys.valueWhere(store, 'kid', { org_id: orgId, status: 'active', alg })) ?? null;
}

/**
 * In one lookup, the org's active RS256 key (access tokens) and its active key of the org's ID-token
 * algorithm (the same row when that is RS256): each as `{kid, alg}`, and that algorithm.
 */
export async function activeSigningKids(
  store: Handle,
  orgId: string,
): Promise<{ rows: { kid: string; alg: SigningAlgorithm }[]; idTokenAlg: SigningAlgorithm | null }> {
  const db = opened(store);
  const rows = await db
    .selectFrom('signing_keys as k')
    .innerJoin('organizations as o', 'o.id', 'k.org_id')
    .select(['k.kid as kid', 'k.alg as alg', 'o.id_token_signing_alg as org_alg'])
    .where('k.org_id', '=', orgId)
    .where('k.status', '=', 'active')
    .where((eb) => eb.or([eb('k.alg', '=', 'RS256'), eb('k.alg', '=', eb.ref('o.id_token_signing_alg'))]))
    .execute();
  return {
    rows: rows.map((r) => ({ kid: r.kid, alg: r.alg as SigningAlgorithm })),
    idTokenAlg: (rows[0]?.org_alg as SigningAlgorithm | undefined) ?? null,
  };
}

/** The algorithms of the org's active keys: what a rotation rotates. */
export async function activeAlgorithms(store: Handle, orgId: string): Promise<SigningAlgorithm[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('signing_keys')
    .select('alg')
    .where('org_id', '=', orgId)
    .where('status', '=', 'active')
    .orderBy('alg')
    .execute();
  return rows.map((r) => r.alg as SigningAlgorithm);
}

/** Retires the org's next and active keys of `alg` (published until `expiresAt`). */
export async function retireKeysOf(store: Handle, orgId: string, alg: SigningAlgorithm, expiresAt: number) {
  const db = opened(store);
  await db
    .updateTable('signing_keys')
    .set({ status: 'retired', expires_at: expiresAt })
    .where('org_id', '=', orgId)
    .where('alg', '=', alg)
    .where('status', '!=', 'retired')
    .execute();
}

export const findKey = (store: Handle, kid: string): Promise<SigningKey | null> =>
  keys.recordWhere(store, { kid });

/** Keys a verifier may meet: the active one, the next one, and retired ones until their tokens expire. */
export async function publishedKeys(
  store: Handle,
  orgId: string,
  now: number,
): Promise<Pick<SigningKey, 'kid' | 'publicJwk' | 'status' | 'expiresAt'>[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('signing_keys')
    .select(['kid', 'public_jwk', 'status', 'expires_at'])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('status', '!=', 'retired'), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({
    kid: r.kid,
    publicJwk: jwk.read(r.public_jwk),
    status: r.status,
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
  }));
}

/**
 * One page of the keys a verifier may meet (as publishedKeys), public facts only: the next key
 * first, then the active one, then retired ones newest first; and how many there are.
 */
export async function pagePublishedKeys(
  store: Handle,
  orgId: string,
  now: number,
  window: { offset: number; limit: number },
): Promise<{ rows: Pick<SigningKey, 'kid' | 'status' | 'createdAt'>[]; total: number }> {
  const db = opened(store);
  const published = db
    .selectFrom('signing_keys')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('status', '!=', 'retired'), eb('expires_at', '>', now)]));
  const total = await countRows(published);
  if (window.offset >= total) return { rows: [], total };
  const rows = await published
    .select(['kid', 'status', 'created_at'])
    .orderBy(sql`case status when 'next' then 0 when 'active' then 1 else 2 end`)
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows.map((r) => ({ kid: r.kid, status: r.status, createdAt: r.created_at })), total };
}

export async function setKeyStatus(store: Handle, kid: string, status: KeyStatus, expiresAt: number | null) {
  await keys.updateWhere(store, { status, expires_at: expiresAt }, { kid });
}

export async function deleteExpiredKeys(store: Handle, orgId: string, now: number): Promise<void> {
  const db = opened(store);
  await db
    .deleteFrom('signing_keys')
    .where('org_id', '=', orgId)
    .where('status', '=', 'retired')
    .where('expires_at', '<=', now)
    .execute();
}

/** Any one private signing key, sealed: a value the secret of a database from before the check opens. */
export async function anySealedKey(store: Handle): Promise<string | null> {
  const db = opened(store);
  const row = await db.selectFrom('signing_keys').select('private_key').limit(1).executeTakeFirst();
  return row?.private_key ?? null;
}
