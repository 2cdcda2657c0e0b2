import type { Signer } from '../../crypto/jwt.js';
import type { Sealer } from '../../crypto/sealing.js';
import { generateSigningKey, type NewKey, openPrivateKey } from '../../crypto/signing-keys.js';
import type { CryptoKey, JWK } from '../../crypto/verify-jwt.js';
import type { Handle, UnitOfWork } from '../../storage/handle.js';
import * as keys from '../../storage/repos/keys.js';
import { recordAudit } from '../audit/audit.js';
import { clock } from '../clock.js';
import { type CredentialCache, orgListThrough } from '../credential-cache.js';
import { fail } from '../errors.js';
import { type PageAsked, windowOf } from '../paging.js';
import { tokensOutliveMs } from '../token-lifetimes.js';
import type { Actor, Org, SigningAlgorithm, SigningKey } from '../types.js';

/** The signer the key ring hands out (declared with the JWS code in crypto/jwt.ts). */
export type { Signer };

/** A key generated and sealed, not yet stored (crypto/signing-keys.ts). */
export type FreshKey = NewKey;

/**
 * Keys are generated before the transaction that stores them, never inside one: a generation
 * waits 50-200 ms on the crypto thread pool, and a transaction holding the database (SQLite's one
 * connection, a PostgreSQL pool connection) that long starves every other request.
 */
export function freshKeys(
  sealer: Sealer,
  count: number,
  alg: SigningAlgorithm = 'RS256',
): Promise<FreshKey[]> {
  return Promise.all(Array.from({ length: count }, () => generateSigningKey(sealer, alg)));
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
    alg: key.alg,
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
 * Puts an org's first keys of `alg` in place (an org choosing ES256 or PS256 for its ID tokens):
 * one active, one next; `fresh` holds NEW_ORG_KEYS keys of `alg`. Nothing when it has them already.
 */
export async function addAlgorithmKeys(
  tx: Handle,
  orgId: string,
  alg: SigningAlgorithm,
  fresh: readonly FreshKey[],
  now: number,
): Promise<void> {
  if ((await keys.activeKid(tx, orgId, alg)) !== null) return;
  const [active, next] = fresh;
  if (!active || !next || active.alg !== alg || next.alg !== alg)
    return fail('keys.create.failed', `the organization needs two fresh ${alg} keys`);
  await insertFresh(tx, active, orgId, 'active', now);
  await insertFresh(tx, next, orgId, 'next', now);
}

/**
 * Retires the org's keys of an algorithm it no longer signs ID tokens with: published until the
 * tokens they signed have expired, like a rotated key, then deleted at a rotation.
 */
export async function retireAlgorithmKeys(
  tx: Handle,
  orgId: string,
  alg: SigningAlgorithm,
  now: number,
): Promise<void> {
  if (alg === 'RS256') return fail('keys.retire.access', 'RS256 keys sign access tokens: never retired so');
  await keys.retireKeysOf(tx, orgId, alg, now + (await tokensOutliveMs(tx, orgId)));
}

/**
 * Rotation, for each algorithm the org signs with (RS256 always, and its ID-token algorithm): the
 * published `next` key starts signing (verifiers that cached the key set already know it), the old
 * active key is retired but stays published until its tokens have expired, and a new `next` key is
 * published. `fresh` holds the keys generated for it beforehand, per algorithm: one, or two when the
 * org has no `next` key of it (an org older than pre-published keys). Answers the RS256 kid.
 */
export async function rotateOrgKeys(
  tx: Handle,
  orgId: string,
  actor: Actor,
  fresh: readonly FreshKey[],
): Promise<string> {
  const now = clock.now();
  const unused = [...fresh];
  const take = (alg: SigningAlgorithm) => {
    const at = unused.findIndex((k) => k.alg === alg);
    if (at < 0) return fail('keys.rotation.raced', 'the signing keys changed during the rotation; try again');
    return unused.splice(at, 1)[0] as FreshKey;
  };
  const algs = await keys.activeAlgorithms(tx, orgId);
  const retiredUntil = now + (await tokensOutliveMs(tx, orgId));
  if (!algs.includes('RS256')) return fail('keys.rotation.no_key', 'the organization has no signing key');
  const data: Record<string, string | null> = {};
  const previous: Record<string, string | null> = {};
  for (const alg of algs) {
    const active = (await keys.findKeyByStatus(tx, orgId, 'active', alg)) as SigningKey;
    const next = (await keys.findKeyByStatus(tx, orgId, 'next', alg)) ?? null;
    const nextKid = next ? next.kid : await insertFresh(tx, take(alg), orgId, 'next', now);
    await keys.setKeyStatus(tx, active.kid, 'retired', retiredUntil);
    await keys.setKeyStatus(tx, nextKid, 'active', null);
    await insertFresh(tx, take(alg), orgId, 'next', now);
    // The access-token key keeps the entry's names; another algorithm's are prefixed with it.
    const name = (field: string) =>
      alg === 'RS256' ? field : `${alg.toLowerCase()}${field[0]?.toUpperCase()}${field.slice(1)}`;
    Object.assign(data, { [name('activeKid')]: nextKid, [name('retiredKid')]: active.kid });
    Object.assign(previous, { [name('activeKid')]: active.kid, [name('retiredKid')]: null });
  }
  await keys.deleteExpiredKeys(tx, orgId, now);
  await recordAudit(tx, { orgId, entity: 'signing_key', verb: 'updated', actor, at: now, data, previous });
  return data.activeKid as string;
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
  // Generated first (see freshKeys), as many of each algorithm as the org's keys now call for.
  const fresh: FreshKey[] = [];
  for (const alg of await keys.activeAlgorithms(deps.store, org.id)) {
    const hasNext = (await keys.findKeyByStatus(deps.store, org.id, 'next', alg)) !== null;
    fresh.push(...(await freshKeys(deps.sealer, hasNext ? 1 : 2, alg)));
  }
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
  q: PageAsked,
): Promise<{ entries: KeySummary[]; total: number }> {
  const window = windowOf(q);
  const { rows, total } = await keys.pagePublishedKeys(deps.store, org.id, clock.now(), window);
  return { entries: rows.map((r) => ({ kid: r.kid, state: r.status, createdAt: r.createdAt })), total };
}

/** The keys an org publishes (status and the instant a retired one stops), as a key-set cache keeps them. */
export type PublishedKeys = Awaited<ReturnType<typeof keys.publishedKeys>>;

/**
 * The org's key set. With `cache` (Deps.keySets: what verifying a token reads, kept like the
 * client lookups, domain/credential-cache.ts), the rows it holds are reused; a retired key still
 * stops being published at its expiry, not when the cache empties: the rows are filtered again here.
 */
export async function publicJwks(
  db: Handle,
  orgId: string,
  cache?: CredentialCache<PublishedKeys>,
): Promise<{ keys: JWK[] }> {
  const now = clock.now();
  const held = await orgListThrough(cache, orgId, () => keys.publishedKeys(db, orgId, now));
  const rows = held.filter((r) => r.status !== 'retired' || (r.expiresAt !== null && r.expiresAt > now));
  // The signing key first: some clients try keys in order.
  rows.sort((a, b) => (a.status === 'active' ? -1 : b.status === 'active' ? 1 : 0));
  return { keys: rows.map((r) => r.publicJwk as JWK) };
}

/**
 * The active signing keys of each org, decrypted once and kept in memory. One indexed lookup per
 * call notices a rotation made by another process (the CLI, another node); a caller that already
 * read the active RS256 kid in its own query (the client_credentials grant, a confidential
 * client's refresh) passes it instead.
 *
 * The signer it hands out is the RS256 one (access tokens); its `forIdTokens` is the signer of the
 * org's ID-token algorithm (DESIGN §20), through which ID tokens, logout tokens, ID-JAGs and signed
 * userinfo are signed. Without a kid, the one lookup reads both; given an org whose algorithm is
 * RS256, `forIdTokens` is the same signer and costs nothing; otherwise it looks its key up when
 * first used.
 */
export class KeyRing {
  // Promises, so concurrent first requests for a key decrypt and import it once.
  readonly #decrypted = new Map<string, Promise<CryptoKey>>();

  constructor(
    private readonly store: Handle,
    private readonly sealer: Sealer,
  ) {}

  async signer(
    org: string | Pick<Org, 'id' | 'idTokenSigningAlg'>,
    activeKid?: string | null,
  ): Promise<Signer> {
    const orgId = typeof org === 'string' ? org : org.id;
    if (activeKid === undefined) {
      const active = await keys.activeSigningKids(this.store, orgId);
      const rs256 = active.rows.find((r) => r.alg === 'RS256');
      if (!rs256) return fail('keys.signing.missing', 'no signing key');
      const signer = await this.#signerOf(rs256.kid, 'RS256');
      const alg = active.idTokenAlg ?? 'RS256';
      if (alg === 'RS256') return signer;
      const own = active.rows.find((r) => r.alg === alg);
      return { ...signer, forIdTokens: () => this.#idSigner(orgId, alg, own?.kid ?? null) };
    }
    if (!activeKid) return fail('keys.signing.missing', 'no signing key');
    const signer = await this.#signerOf(activeKid, 'RS256');
    if (typeof org !== 'string' && org.idTokenSigningAlg === 'RS256') return signer;
    return {
      ...signer,
      forIdTokens: async () => {
        const alg =
          typeof org === 'string'
            ? ((await keys.activeSigningKids(this.store, orgId)).idTokenAlg ?? 'RS256')
            : org.idTokenSigningAlg;
        return alg === 'RS256' ? signer : this.#idSigner(orgId, alg, null);
      },
    };
  }

  /** The signer of `alg`'s active key (looked up when not known): never another algorithm's. */
  async #idSigner(orgId: string, alg: SigningAlgorithm, kid: string | null): Promise<Signer> {
    const own = kid ?? (await keys.activeKid(this.store, orgId, alg));
    if (!own) return fail('keys.signing.missing', `no ${alg} signing key`);
    return this.#signerOf(own, alg);
  }

  async #signerOf(kid: string, alg: SigningAlgorithm): Promise<Signer> {
    let key = this.#decrypted.get(kid);
    if (!key) {
      key = this.#open(kid, alg);
      this.#decrypted.set(kid, key);
      // A failed load is not kept: the next request tries again.
      key.catch(() => this.#decrypted.delete(kid));
    }
    return { kid, key: await key, alg };
  }

  async #open(kid: string, alg: SigningAlgorithm): Promise<CryptoKey> {
    const key = await keys.findKey(this.store, kid);
    if (!key || key.alg !== alg) return fail('keys.signing.missing', 'no signing key');
    return openPrivateKey(this.sealer, key.sealedPrivateKey, alg);
  }
}
