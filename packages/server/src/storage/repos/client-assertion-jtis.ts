import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { purgeExpired } from './expiry.js';
import { insertedAnew } from './inserted-anew.js';

/**
 * Records the `jti` of an accepted client assertion until `expiresAt`. False when the same client
 * already used it: the insert conflicts, so of two concurrent requests exactly one records it.
 * Expired rows are purged first, so an expired jti cannot block (its assertion is refused anyway).
 */
export async function recordAssertionJti(
  store: Handle,
  row: { orgId: string; clientId: string; jtiHash: string; expiresAt: number },
  now: number,
): Promise<boolean> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('client_assertion_jtis'), now);
  return insertedAnew(
    db
      .insertInto('client_assertion_jtis')
      .values({
        org_id: row.orgId,
        client_id: row.clientId,
        jti_hash: row.jtiHash,
        expires_at: row.expiresAt,
      })
      .onConflict((oc) => oc.columns(['org_id', 'client_id', 'jti_hash']).doNothing()),
  );
}
