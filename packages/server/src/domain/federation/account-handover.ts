import type { Handle } from '../../storage/handle.js';
import { deleteUserConsents } from '../../storage/repos/consents.js';
import { deleteUserPasskeys } from '../../storage/repos/passkeys.js';
import { deleteTotpFactor } from '../../storage/repos/second-factors.js';
import { clearPassword } from '../../storage/repos/users.js';
import { endUserSessions } from '../sessions/sessions.js';
import { passkeyAudit } from '../sign-in/passkeys.js';
import { type Org, SYSTEM, type User } from '../types.js';

/**
 * What a self-service account loses when an upstream identity is first linked to it (DESIGN §17,
 * account-linking.ts): whoever typed the address at sign-up chose its password and may hold the
 * rest, and neither the mailed proof (account-link-proofs.ts) nor a verification link followed
 * since says that person is the one now arriving from the upstream (the owner of a mailbox clicks
 * the "confirm your address" mail a stranger's sign-up sent them). So every session ends (its
 * refresh and access tokens with it), and the password, second factor, recovery codes, passkeys
 * (each audited) and consents go, in the caller's transaction. The tenants and what they hold stay.
 */
export async function handOverAccount(tx: Handle, org: Org, user: User, now: number): Promise<void> {
  await endUserSessions(tx, user.id, SYSTEM, now);
  await clearPassword(tx, user.id, now);
  await deleteTotpFactor(tx, user.id);
  await deleteUserConsents(tx, user.id);
  const passkeys = await deleteUserPasskeys(tx, user.id);
  for (const p of passkeys) await passkeyAudit.deleted(tx, { orgId: org.id, actor: SYSTEM, at: now }, p);
}
