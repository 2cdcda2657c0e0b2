import { isUniqueViolation } from '../../storage/errors.js';
import type { Handle } from '../../storage/handle.js';
import { retireMailTokens } from '../../storage/repos/mail-tokens.js';
import {
  emailKey,
  findUserByEmail,
  findUserById,
  markEmailVerified,
  setEmail,
} from '../../storage/repos/users.js';
import { recordUserUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { checkEmail } from '../directory/validate.js';
import { type InputProblem, inputProblemOf } from '../errors.js';
import type { Locale } from '../locales.js';
import {
  type CurrentPasswordAttempt,
  type CurrentPasswordCheck,
  checkCurrentPassword,
} from '../sign-in/current-password.js';
import type { Org, User } from '../types.js';
import type { MailDeps } from './deps.js';
import { consumeMailLink, issueMailLink } from './mail-links.js';
import { addressChangedMail, mailTexts, verificationMail } from './messages.js';

/**
 * Mails the user a link that verifies their current address (after sign-up, after an address
 * change, or asked again from the profile page). Nothing is sent when it is verified already.
 */
export async function mailVerification(
  deps: MailDeps,
  org: Org,
  userId: string,
  asked: Locale | null = null,
): Promise<void> {
  const user = await findUserById(deps.store, userId);
  if (!user || user.disabled || user.emailVerified) return;
  const link = await deps.unitOfWork.run((tx) => issueMailLink(tx, deps, org, user, 'verify'));
  const words = await mailTexts(deps, org, user.locale, asked);
  await deps.mailer.send(verificationMail(words, org, user.email, link.url, link.minutes));
}

/**
 * Marks the address a link was mailed to as verified, while it is still the user's: audited as
 * `user.updated`. The user after, or null when the address has changed since the link was sent.
 * A verification link and a reset link (which proves the mailbox too) both end here.
 */
export async function markAddressVerified(
  tx: Handle,
  user: User,
  sentTo: string,
  now: number,
): Promise<User | null> {
  if (!(await markEmailVerified(tx, user.id, sentTo, now))) return null;
  const after: User = { ...user, emailVerified: true, updatedAt: now };
  await recordUserUpdated(tx, user, after, { kind: 'user', id: user.id });
  return after;
}

/** Follows a verification link, once: the address it went to is verified (audited as `user.updated`). */
export async function verifyAddress(deps: MailDeps, org: Org, token: string): Promise<User | null> {
  return deps.unitOfWork.run(async (tx) => {
    const now = clock.now();
    const link = await consumeMailLink(tx, org, 'verify', token, now);
    if (link === null) return null;
    const { user, stored } = link;
    if (user.emailVerified) return user;
    const after = await markAddressVerified(tx, user, stored.sentTo, now);
    if (after === null) return null;
    await retireMailTokens(tx, user.id, 'verify', now);
    return after;
  });
}

export type EmailChangeOutcome =
  | { ok: true; user: User; previousEmail: string | null }
  | { ok: false; reason: 'invalid'; problem: InputProblem }
  | Exclude<CurrentPasswordCheck, { ok: true }>
  | { ok: false; reason: 'conflict' };

/**
 * Changes the user's address on their word and current password (checked under the login
 * throttle). The new address is unverified until the link mailed to it is followed; earlier
 * verification links stop working. Audited as `user.updated`. `previousEmail` is null when the
 * address was the same (nothing changed).
 */
export async function changeEmail(
  deps: MailDeps,
  org: Org,
  user: User,
  input: CurrentPasswordAttempt & { email: string },
): Promise<EmailChangeOutcome> {
  let email: string;
  try {
    email = checkEmail(input.email);
  } catch (error) {
    return { ok: false, reason: 'invalid', problem: inputProblemOf(error) };
  }
  const checked = await checkCurrentPassword(deps, org, user, input);
  if (!checked.ok) return checked;
  if (email === user.email) return { ok: true, user, previousEmail: null };
  try {
    return await deps.unitOfWork.run(async (tx): Promise<EmailChangeOutcome> => {
      const other = await findUserByEmail(tx, org.id, email);
      if (other && other.id !== user.id) return { ok: false, reason: 'conflict' };
      const before = (await findUserById(tx, user.id)) ?? user;
      const now = clock.now();
      await setEmail(tx, user.id, email, now);
      await retireMailTokens(tx, user.id, 'verify', now);
      const sameAddress = emailKey(email) === emailKey(before.email);
      const after: User = {
        ...before,
        email,
        emailVerified: sameAddress ? before.emailVerified : false,
        updatedAt: now,
      };
      // Only the letter case changed: the mailbox is the same, and so is its verification.
      if (sameAddress && before.emailVerified) await markEmailVerified(tx, user.id, email, now);
      await recordUserUpdated(tx, before, after, { kind: 'user', id: user.id });
      return { ok: true, user: after, previousEmail: before.email };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'conflict' };
    throw error;
  }
}

/** Tells the previous address that the account's address changed (no link: nothing to act on). */
export async function mailAddressChanged(deps: MailDeps, org: Org, previous: string, user: User) {
  const words = await mailTexts(deps, org, user.locale);
  await deps.mailer.send(addressChangedMail(words, org, previous, user.email));
}
