import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { purgeExpired } from './expiry.js';
import { insertedAnew } from './inserted-anew.js';

/**
 * Records an accepted DPoP proof (its key thumbprint and `jti`, as one SHA-256) until `expiresAt`.
 * False when it was recorded before: the insert conflicts, so of two requests carrying the same
 * proof at once, on any node, exactly one records it.
 */
export async function recordProofJti(store: Handle, jtiHash: string, expiresAt: number): Promise<boolean> {
  const db = opened(store);
  return insertedAnew(
    db
      .insertInto('dpop_proof_jtis')
      .values({ jti_hash: jtiHash, expires_at: expiresAt })
      .onConflict((oc) => oc.column('jti_hash').doNothing()),
  );
}

/** Forgets the proofs that could no longer be accepted anyway (their `iat` is out of the window). */
export async function purgeProofJtis(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('dpop_proof_jtis'), expiredBefore);
}
