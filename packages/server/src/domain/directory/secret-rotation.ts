import { newSecret, sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { clock } from '../clock.js';
import type { DirectoryDeps } from './deps.js';

/**
 * A client secret's rotation, for clients and service accounts: a new secret, shown once (the value
 * returned), whose hash `store` writes in place of the old one with its audit entry in one
 * transaction. The old one stops working when this commits: this process's cache of client
 * credentials is emptied at once, other nodes' on the change notification.
 */
export async function rotateSecret(
  deps: DirectoryDeps,
  store: (tx: Handle, hash: string) => Promise<void>,
): Promise<string> {
  const secret = newSecret('tcs_');
  await deps.unitOfWork.run((tx) => store(tx, sha256(secret)));
  deps.credentials?.changed();
  return secret;
}

/** A new secret's issue time: strictly later than the last issue, so its audit entry always shows the change. */
export const nextIssueTime = (lastIssuedAt: number | null) => Math.max(clock.now(), (lastIssuedAt ?? 0) + 1);
