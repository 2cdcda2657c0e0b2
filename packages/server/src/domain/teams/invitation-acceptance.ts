import { sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import {
  acceptInvitationRow,
  findInvitationByTokenHash,
  setInvitationAcceptedBy,
} from '../../storage/repos/invitations.js';
import { findMembership } from '../../storage/repos/memberships.js';
import { findOrgById, lockOrg } from '../../storage/repos/orgs.js';
import { findRoles, rolesOfUser, setUserRoles } from '../../storage/repos/roles.js';
import { findUserByEmail } from '../../storage/repos/users.js';
import { byTheUser } from '../audit/audit.js';
import { userSnapshot } from '../audit/snapshots.js';
import { heldListUpdated } from '../audit/trail.js';
import { clock } from '../clock.js';
import { addMember } from '../directory/members.js';
import { insertUserWithTenant, prepareUser } from '../directory/users.js';
import { fail, type InputProblem, inputProblemOf, ServiceError } from '../errors.js';
import { markAddressVerified } from '../mail/address-verification.js';
import type { Throttled } from '../sign-in/login-throttle.js';
import { checkPassword } from '../sign-in/password-login.js';
import { type InvitationRecord, type Org, SYSTEM, type User } from '../types.js';
import type { TeamsDeps } from './deps.js';
import { invitationAudit, stateOf, toInvitation } from './invitations.js';

/**
 * Accepting an invitation (DESIGN §16), in at most two steps on the hosted pages of `host` (the
 * org's own for a `user` invitation, the console's for a `member` one): someone with an account
 * signs in (their password, or this browser's sign-in), anyone else chooses a name and a password.
 * Independent of the org's sign-up setting: the owner's invitation is the permission.
 * The link is single use (one atomic UPDATE decides); accepting is audited as `invitation.updated`
 * (state `pending` → `accepted`: the spec's verbs are created, updated, deleted and login).
 */

/** What the link opens: a pending invitation with who the invitee is, or why it is closed. */
export type OpenedInvitation =
  | {
      state: 'pending';
      row: InvitationRecord;
      /** The org the invitee joins. */
      org: Org;
      /** Where the invitee's account lives: the org, or the console org. */
      accountOrg: Org;
      /** The invitee's account there, when they have one. */
      existing: User | null;
    }
  | { state: 'accepted' | 'expired' | 'revoked'; org: Org }
  | { state: 'unknown' };

/** The invitation behind `token` on `host`, without using it (a mail scanner's GET must not spend it). */
export async function openInvitation(deps: TeamsDeps, host: Org, token: string): Promise<OpenedInvitation> {
  if (token.length === 0 || token.length > 200) return { state: 'unknown' };
  const tokenHash = sha256(token);
  const row = await findInvitationByTokenHash(deps.store, tokenHash);
  // A link works on the host it names only: an org's for users, the console's for members.
  if (!row || (row.kind === 'member' ? !host.isConsole : row.orgId !== host.id)) return { state: 'unknown' };
  const org = await findOrgById(deps.store, row.orgId);
  if (!org) return { state: 'unknown' };
  const state = stateOf(row, clock.now());
  if (state !== 'pending') return { state, org };
  const accountOrg = row.kind === 'member' ? host : org;
  const existing = await findUserByEmail(deps.store, accountOrg.id, row.email);
  if (existing !== null) {
    // An acceptance makes the account and uses the invitation in one transaction, committed between
    // the two reads above: the account found may be that acceptance's. The row read again then shows
    // the invitation used (the closed page), not a sign-in form for an invitation already spent.
    const again = await findInvitationByTokenHash(deps.store, tokenHash);
    if (!again) return { state: 'unknown' };
    const stateNow = stateOf(again, clock.now());
    if (stateNow !== 'pending') return { state: stateNow, org };
  }
  return { state: 'pending', row, org, accountOrg, existing };
}

export type Acceptance =
  | { ok: true; user: User; org: Org }
  /** Used, withdrawn or expired meanwhile: the page says the link no longer works. */
  | { ok: false; reason: 'closed' }
  /** The account's password was wrong (or the account is disabled: the same words). */
  | { ok: false; reason: 'invalid' }
  | Throttled
  /** The name or password given is not allowed: `problem` says why. */
  | { ok: false; reason: 'input'; problem: InputProblem }
  /** The address got an account since the page was shown: sign in instead. */
  | { ok: false; reason: 'exists' };

type Pending = Extract<OpenedInvitation, { state: 'pending' }>;

const EXISTS = 'the invitee has an account now';

/**
 * In `tx`, first of all: uses the invitation, or null when someone else did, or it closed
 * meanwhile. The one UPDATE row-locks it, so a concurrent acceptance waits here and then finds it
 * used, before it creates anything.
 */
const claim = (tx: Handle, opened: Pending, now: number) =>
  acceptInvitationRow(tx, opened.row.tokenHash, now);

/**
 * In `tx`: a `user` invitation's end-user roles added to those the user holds (a role deleted
 * since the invitation was sent is skipped), audited as `user.updated` like setting a user's roles.
 */
async function grantRoles(tx: Handle, opened: Pending, used: InvitationRecord, user: User, now: number) {
  const invited = await findRoles(tx, opened.org.id, used.roles);
  if (invited.length === 0) return;
  const before = (await rolesOfUser(tx, user.id)).map((r) => r.id).sort();
  const after = [...new Set([...before, ...invited.map((r) => r.id)])].sort();
  if (after.length === before.length) return;
  await setUserRoles(tx, user.id, after, now);
  const by = byTheUser(opened.org.id, user.id, now);
  await heldListUpdated(tx, by, 'user', userSnapshot(user), 'roles', { before, after });
}

/**
 * In `tx`, after claim: what the invitation grants (`member`: the membership, unless they are one
 * already; `user`: its roles), audited.
 */
async function grant(tx: Handle, opened: Pending, used: InvitationRecord, user: User, now: number) {
  await setInvitationAcceptedBy(tx, used.id, user.id);
  if (used.kind === 'user') await grantRoles(tx, opened, used, user, now);
  if (used.kind === 'member' && used.role !== null) {
    await lockOrg(tx, opened.org.id);
    if (!(await findMembership(tx, opened.org.id, user.id))) {
      const ready = {
        consoleOrg: opened.accountOrg,
        prepared: { input: { email: user.email, password: null }, passwordHash: null },
        existing: user,
      };
      await addMember(tx, opened.org, ready, used.role, { kind: 'user', id: user.id });
    }
  }
  const before = toInvitation(used, now);
  const after = { ...before, state: 'accepted' as const, acceptedAt: now, acceptedBy: user.id };
  await invitationAudit.updated(
    tx,
    byTheUser(opened.org.id, user.id, now),
    { ...before, state: 'pending', acceptedAt: null, acceptedBy: null },
    after,
  );
}

/** The words of a refused name or password (the sign-up rules), or rethrows anything else. */

/**
 * Step two for someone without an account: the account is created (user and personal tenant,
 * as sign-up does, whatever the org's sign-up setting), then the invitation accepted, together.
 * A mailed invitation proved the mailbox: the address counts as verified.
 */
export async function acceptAsNewUser(
  deps: TeamsDeps,
  opened: Pending,
  input: { firstName: string; lastName: string; password: string },
): Promise<Acceptance> {
  let prepared: Awaited<ReturnType<typeof prepareUser>>;
  try {
    if (input.firstName.trim() === '')
      fail('invitation.accept.first_name_missing', 'please enter your first name');
    prepared = await prepareUser({
      email: opened.row.email,
      password: input.password,
      firstName: input.firstName,
      lastName: input.lastName.trim() === '' ? null : input.lastName,
    });
  } catch (error) {
    return { ok: false, reason: 'input', problem: inputProblemOf(error) };
  }
  try {
    return await deps.unitOfWork.run(async (tx): Promise<Acceptance> => {
      const now = clock.now();
      const used = await claim(tx, opened, now);
      if (used === null) return { ok: false, reason: 'closed' };
      // The address got an account since the page was shown: nothing of this stays.
      if (await findUserByEmail(tx, opened.accountOrg.id, opened.row.email))
        fail('invitation.accept.user_exists', EXISTS);
      const invited = { ...prepared, input: { ...prepared.input, origin: 'invitation' as const } };
      let { user } = await insertUserWithTenant(tx, opened.accountOrg.id, invited, SYSTEM);
      if (used.mailed) user = (await markAddressVerified(tx, user, used.email, now)) ?? user;
      await grant(tx, opened, used, user, now);
      return { ok: true, user, org: opened.org };
    });
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'conflict') return { ok: false, reason: 'exists' };
    throw error;
  }
}

/**
 * Step two for someone with an account: their password (throttled like the login form, and refused
 * in the same words for a disabled account — and for an address with no account, which the page
 * offers this form to as well), or `signedIn`, this browser's sign-in as them.
 */
export async function acceptAsExistingUser(
  deps: TeamsDeps,
  opened: Pending,
  proof: { password: string; ip: string; deviceToken: string | null } | { signedIn: User },
): Promise<Acceptance> {
  let user: User;
  if ('signedIn' in proof) {
    if (!opened.existing || proof.signedIn.id !== opened.existing.id || proof.signedIn.disabled) {
      return { ok: false, reason: 'invalid' };
    }
    user = proof.signedIn;
  } else {
    const outcome = await checkPassword(
      deps,
      opened.accountOrg,
      opened.row.email,
      proof.password,
      proof.ip,
      proof.deviceToken,
    );
    if (!outcome.ok) return outcome;
    user = outcome.user;
  }
  return deps.unitOfWork.run(async (tx): Promise<Acceptance> => {
    const now = clock.now();
    const used = await claim(tx, opened, now);
    if (used === null) return { ok: false, reason: 'closed' };
    await grant(tx, opened, used, user, now);
    return { ok: true, user, org: opened.org };
  });
}
