import type { Sealer } from '../../crypto/sealing.js';
import type { Handle } from '../../storage/handle.js';
import { anySealedKey } from '../../storage/repos/keys.js';
import { findSealedCheck, insertSealedCheck } from '../../storage/repos/sealed-checks.js';
import { clock } from '../clock.js';

const NAME = 'master_secret';
const TEXT = 'tessera sealed check v1';

/** Whether `sealed` opens under the sealer's key (AES-GCM's tag says so) to `text`. */
function opens(sealer: Sealer, sealed: string, text: string | null): boolean {
  try {
    const plain = sealer.open(sealed);
    return text === null || plain === text;
  } catch {
    return false;
  }
}

/**
 * Whether this process's master secret is the database's: it opens the sealed check value. The
 * first process to start writes the value; a database from before the check gets it written by
 * the first process whose secret opens one of its sealed signing keys (one that cannot writes
 * nothing and is refused). Two first starts at once: one value is kept, the other process reads it.
 */
export async function secretOpensDatabase(db: Handle, sealer: Sealer): Promise<boolean> {
  const existing = await findSealedCheck(db, NAME);
  if (existing !== null) return opens(sealer, existing, TEXT);
  const key = await anySealedKey(db);
  if (key !== null && !opens(sealer, key, null)) return false;
  await insertSealedCheck(db, NAME, sealer.seal(TEXT), clock.now());
  const kept = await findSealedCheck(db, NAME);
  return kept !== null && opens(sealer, kept, TEXT);
}
