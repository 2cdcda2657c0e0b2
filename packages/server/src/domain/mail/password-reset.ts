import { hashPassword } from '../../crypto/passwords.js';
import { retireMailTokens } from '../../storage/repos/mail-tokens.js';
import { findUserByEmail, setPasswordHash } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import { auditPassword, passwordProblem } from '../directory/password-updates.js';
import type { InputProblem } from '../errors.js';
import type { Locale } from '../locales.js';
import { endUserSessions } from '../sessions/sessions.js';
import type { Org, User } from '../types.js';
import { markAddressVerified } from './address-verification.js';
import type { MailDeps } from './deps.js';
import { consumeMailLink, issueMailLink } from './mail-links.js';
import { mailTexts, passwordResetMail } from './messages.js';

/**
 * "Forgot password?" (DESIGN §12). The page answers the same for every address at once; this runs
 * after the answer is sent: an enabled user of the org with that address gets a one-time link,
 * anyone else nothing. Nothing of the outcome reaches the person who asked.
 */
export async function mailPasswordReset(
  deps: MailDeps,
  org: Org,
  email: string,
  asked: Locale | null = null,
): Promise<void> {
  if (email.length > 254) return;
  const user = await findUserByEmail(deps.store, org.id, email);
  if (!user || user.disabled) return;
  const link = await deps.unitOfWork.run((tx) => issueMailLink(tx, deps, org, user, 'reset'));
  const words = await mailTexts(deps, org, user.locale, asked);
  await deps.mailer.send(passwordResetMail(words, org, user.email, link.url, link.minutes));
}

export type ResetOutcome =
  | { ok: true; user: User; sessionsEnded: number }
  | { ok: false; reason: 'expired' }
  | { ok: false; reason: 'password'; problem: InputProblem };

/**
 * Sets a new password through a reset link, once: the link is used, every session of the user
 * ends (their OAuth sessions, so refresh tokens are refused, and every login cookie), the other
 * reset links stop working, and, as the link proved the mailbox, the address counts as verified.
 * Audited as `password.updated` (and `user.updated` when the address became verified).
 */
export async function resetPassword(deps: MailDeps, org: Org, token: string, password: string) {
  const problem = passwordProblem(password);
  if (problem !== null) return { ok: false, reason: 'password', problem } satisfies ResetOutcome;
  // argon2 outside the transaction: it is slow and must not hold a write lock.
  const passwordHash = await hashPassword(password);
  return deps.unitOfWork.run(async (tx): Promise<ResetOutcome> => {
    const now = clock.now();
    const link = await consumeMailLink(tx, org, 'reset', token, now);
    if (link === null) return { ok: false, reason: 'expired' };
    const { user, stored } = link;
    await setPasswordHash(tx, user.id, passwordHash, now);
    await retireMailTokens(tx, user.id, 'reset', now);
    if (!user.emailVerified) await markAddressVerified(tx, user, stored.sentTo, now);
    const sessionsEnded = await endUserSessions(tx, user.id, { kind: 'user', id: user.id }, now);
    await auditPassword(tx, user, 'reset', sessionsEnded, now);
    return { ok: true, user, sessionsEnded };
  });
}
