import type { Handle } from '../../storage/handle.js';
import { listConnections } from '../../storage/repos/connections.js';
import { findUserOrigin, type UserOrigin } from '../../storage/repos/users.js';
import type { Org, User } from '../types.js';
import { type Connection, claimsEmail } from './connections.js';

/**
 * Whether a person an upstream vouched for may become an existing user of the org who has the same
 * address (DESIGN §17, issue 41). Who vouched for that user's address when they were made decides
 * (`users.origin`, migration 036):
 * - the host or an owner (`owner`: the CLI, the management API; `invitation`: accepting an owner's
 *   invitation): linked, as before;
 * - the user proved the mailbox since (`email_verified`): linked; a self-service account (`sign_up`
 *   or no origin) handed over as after a proof (`handOver`, account-handover.ts), since a
 *   verification link says nothing of who chose its password (the mailbox's owner follows the mail
 *   a stranger's sign-up sent them);
 * - nobody (`sign_up`, self-service, or made before migration 036, when the CLI's users and
 *   self-service ones cannot be told apart), address never verified: anyone may have typed it, so
 *   the person proves the account first (`prove`: a link mailed to the address, account-link-proofs.ts),
 *   and linking then ends everything the account had;
 * - another connection that still exists (`connection`, JIT): never, whatever the address; that
 *   connection's upstream holds the account. One deleted since holds nothing any more.
 * Always: the connection claims the address's domain and the upstream vouches for the address.
 */
export type LinkDecision =
  | { kind: 'link'; handOver: boolean }
  | { kind: 'prove' }
  | { kind: 'refuse'; message: string };

/** Whether the user was made on first sign-in by a connection of the org other than `c` that still exists. */
export async function madeByAnotherConnection(db: Handle, org: Org, c: Connection, userId: string) {
  return heldByAnotherConnection(db, org, c, await findUserOrigin(db, userId));
}

/** The same, from the user's origin already read. */
async function heldByAnotherConnection(db: Handle, org: Org, c: Connection, origin: UserOrigin | null) {
  if (origin?.origin !== 'connection' || origin.connectionId === c.id) return false;
  return (await listConnections(db, org.id)).some((other) => other.id === origin.connectionId);
}

export const MADE_BY_ANOTHER = (c: Connection, email: string) =>
  `The account for ${email} signs in through another connection, not ${c.name}. Use that one.`;

export async function linkDecision(
  db: Handle,
  org: Org,
  c: Connection,
  identity: { email: string; emailVerified: boolean },
  user: User,
): Promise<LinkDecision> {
  if (!claimsEmail(c, identity.email) || !identity.emailVerified) {
    return {
      kind: 'refuse',
      message: `An account for ${identity.email} exists here but is not linked to ${c.name}. Sign in with your password instead.`,
    };
  }
  const made = await findUserOrigin(db, user.id);
  if (await heldByAnotherConnection(db, org, c, made))
    return { kind: 'refuse', message: MADE_BY_ANOTHER(c, identity.email) };
  const origin = made?.origin ?? null;
  if (origin === 'owner' || origin === 'invitation' || origin === 'connection')
    return { kind: 'link', handOver: false };
  // Self-service, verified since: the mailbox is the person's, the credentials may be anyone's.
  if (user.emailVerified) return { kind: 'link', handOver: true };
  return { kind: 'prove' };
}
