import type { Signer } from '../../crypto/jwt.js';
import type { Sealer } from '../../crypto/sealing.js';
import { generateSigningKey, type NewKey, openPrivateKey } from '../../crypto/signing-keys.js';
import type { CryptoKey, JWK } from '../../crypto/verify-jwt.js';
import type { Handle, UnitOfWork } from '../../storage/handle.js';
import * as keys from '../../storage/repos/keys.js';
import { recordAudit } from '../audit/audit.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { RETIRED_KEY_GRACE_MS } from '../tokens-policy.js';
import type { Actor, Org } from '../types.js';

/** The signer the key ring hands out (declared with the JWS code in crypto/jwt.ts). */
export type { Signer };

/** A key generated and sealed, not yet stored (crypto/signing-keys.ts). */
export type FreshKey = NewKey;

/**
 * Keys are generated before the transaction that stores them, never inside one: a generation
 * waits 50-200 ms on the crypto thread pool, and a transaction holding the database (SQLite's one
 * connection, a PostgreSQL pool connection) that long starves every other request.
 */
export function freshKeys(sealer: Sealer, count: number): Promise<FreshKey[]> {
  return Promise.all(Array.from({ length: count }, () => generateSigningKey(sealer)));
}

async function insertFresh(tx: Handle, key: FreshKey, orgId: string, status: 'next' | 'active', now: number) {
  await keys.insertKey(tx, {
    kid: key.kid,
    orgId,
    status,
    publicJwk: key.publicJwk,
    sealedPrivateKey: key.sealedPrivateKey,
    createdAt: now,
    expiresAt: null,
  });
  return key.kid;
}

/** What a new org needs from freshKeys: the key it signs with and the one that will follow it. */
export const NEW_ORG_KEYS = 2;

/**
 * A new org signs with one key and already publishes the one that will follow it; `fresh` holds
 * NEW_ORG_KEYS keys from freshKeys.
 */
export async function createOrgKeys(
  tx: Handle,
  orgId: string,
  fresh: readonly FreshKey[],
  now: number,
): Promise<string> {
  const [active, next] = fresh;
  if (!active || !next) return fail('keys.create.failed', 'a new organization needs two fresh keys');
  const kid = await insertFresh(tx, active, orgId, 'active', now);
  await insertFresh(tx, next, orgId, 'next', now);
  return kid;
}

/**
 * Rotation: the published `next` key starts signing (verifiers that cached the key set already
 * know it), the old active key is retired but stays published until its tokens have expired,
 * and a new `next` key is published. `fresh` holds the keys generated for it beforehand: one, or
 * two when the org has no `next` key (an org older than pre-published keys).
 */
export async function rotateOrgKeys(
  tx: Handle,
  orgId: string,
  actor: Actor,
  fresh: readonly FreshKey[],
): Promise<string> {
  const now = clock.now();
  const unused = [...fresh];
  const take = () =>
    unused.shift() ?? fail('keys.rotation.raced', 'the signing keys changed during the rotation; try again');
  const active = await keys.findKeyByStatus(tx, orgId, 'active');
  const next = (await keys.findKeyByStatus(tx, orgId, 'next')) ?? null;
  if (!active) return fail('keys.rotation.no_key', 'the organization has no signing key');
  const nextKid = next ? next.kid : await insertFresh(tx, take(), orgId, 'next', now);
  await keys.setKeyStatus(tx, active.kid, 'retired', now + RETIRED_KEY_GRACE_MS);
  await keys.setKeyStatus(tx, nextKid, 'active', null);
  await insertFresh(tx, take(), orgId, 'next', now);
  await keys.deleteExpiredKeys(tx, orgId, now);
  await recordAudit(tx, {
    orgId,
    entity: 'signing_key',
    verb: 'updated',
    actor,
    at: now,
    data: { activeKid: nextKid, retiredKid: active.kid },
    previous: { activeKid: active.kid, retiredKid: null },
  });
  return nextKid;
}

/**
 * What the key operations need: less than KeysDeps (keys/deps.ts), which names the key ring defined
 * in this file, so this file states its own narrower need instead of importing that bag back.
 */
interface KeyDeps {
  readonly store: Handle;
  readonly unitOfWork: UnitOfWork;
  readonly sealer: Sealer;
  readonly credentials?: { changed(): void };
}

/**
 * Rotates the org's keys (rotateOrgKeys) in a transaction of its own, with the keys generated
 * before it, for `tessera keys rotate` and POST /organizations/{org}/keys/rotate: returns the kid
 * that signs from now on. This process's cache of the client_credentials lookups (which holds the active kid) is emptied at once.
 */
export async function rotateKeys(deps: KeyDeps, org: Org, actor: Actor): Promise<string> {
  // Generated first (see freshKeys), as many as the org's keys now call for.
  const hasNext = (await keys.findKeyByStatus(deps.store, org.id, 'next')) !== null;
  const fresh = await freshKeys(deps.sealer, hasNext ? 1 : 2);
  const kid = await deps.unitOfWork.run((tx) => rotateOrgKeys(tx, org.id, actor, fresh));
  deps.credentials?.changed();
  return kid;
}

/** A signing key as the management API shows it: public facts, never key material. */
export interface KeySummary {
  kid: string;
  state: 'next' | 'active' | 'retired';
  createdAt: number;
}

/** One page of the org's published keys: next, active, then retired ones until their tokens expire. */
export async function listKeys(
  deps: KeyDeps,
  org: Org,
  q: { page: number; perPage: number },
): Promise<{ entries: KeySummary[]; total: number }> {
  const window = { offset: q.page * q.perPage, limit: q.perPage };
  const { rows, total } = await keys.pagePublishedKeys(deps.store, org.id, clock.now(), window);
  return { entries: rows.map((r) => ({ kid: r.kid, state: r.status, createdAt: r.createdAt })), total };
}

export async function publicJwks(db: Handle, orgId: string): Promise<{ keys: JWK[] }> {
  const rows = await keys.publishedKeys(db, orgId, clock.now());
  // The signing key first: some clients try keys in order.
  rows.sort((a, b) => (a.status === 'active' ? -1 : b.status === 'active' ? 1 : 0));
  return { keys: rows.map((r) => r.publicJwk as JWK) };
}

/**
 * The active signing key of each org, decrypted once and kept in memory. One indexed lookup per
 * call notices a rotation made by another process (the CLI, another node); a caller that already
 * read the active kid in its own query (the client_credentials grant) passes it instead.
 */
export class KeyRing {
  // Promises, so concurrent first requests for a key decrypt and import it once.
  readonly #decrypted = new Map<string, Promise<CryptoKey>>();

  constructor(
    private readonly store: Handle,
    private readonly sealer: Sealer,
  ) {}

  async signer(orgId: string, activeKid?: string | null): Promise<Signer> {
    const kid = activeKid === undefined ? await keys.activeKid(this.store, orgId) : activeKid;
    if (!kid) return fail('keys.signing.missing', 'no signing key');
    let key = this.#decrypted.get(kid);
    if (!key) {
      key = this.#open(kid);
      this.#decrypted.set(kid, key);
      // A failed load is not kept: the next request tries again.
      key.catch(() => this.#decrypted.delete(kid));
    }
    return { kid, key: await key };
  }

  async #open(kid: string): Promise<CryptoKey> {
    const key = await keys.findKey(this.store, kid);
    if (!key) return fail('keys.signing.missing', 'no signing key');
    return openPrivateKey(this.sealer, key.sealedPrivateKey);
  }
}
