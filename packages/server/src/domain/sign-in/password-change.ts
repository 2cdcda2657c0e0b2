import { hashPassword } from '../../crypto/passwords.js';
import { sha256 } from '../../crypto/random.js';
import { deleteOtherBrowserSessions } from '../../storage/repos/browser-sessions.js';
import { retireMailTokens } from '../../storage/repos/mail-tokens.js';
import { liveSessionIds } from '../../storage/repos/oauth-sessions.js';
import { setPasswordHash } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import { auditPassword, passwordProblem } from '../directory/password-updates.js';
import type { InputProblem } from '../errors.js';
import { propagateLogout } from '../sessions/logout-propagation.js';
import { revokeSessions } from '../sessions/sessions.js';
import type { Org, User } from '../types.js';
import { type CurrentPasswordCheck, checkCurrentPassword } from './current-password.js';
import type { SignInDeps } from './deps.js';

export type PasswordChangeOutcome =
  | { ok: true; sessionsEnded: number }
  | { ok: false; reason: 'password'; problem: InputProblem }
  | Exclude<CurrentPasswordCheck, { ok: true }>;

/**
 * Changes the password on the profile page: the current one is required (checked under the login
 * throttle, so the form is no way around it), the new one follows the sign-up rule. Every other
 * session of the user ends: all their OAuth sessions (refresh tokens are refused from then on) and
 * every login cookie but this browser's (`currentBrowserSecret`), which stays signed in, so the
 * application it came from signs in again without a password prompt. Outstanding reset links stop
 * working. Audited as `password.updated`.
 */
export async function changePassword(
  deps: SignInDeps,
  org: Org,
  user: User,
  input: {
    current: string;
    next: string;
    ip: string;
    currentBrowserSecret: string | null;
    /** This browser's device cookie: its own counter instead of the account's (login-throttle.ts). */
    deviceToken: string | null;
  },
): Promise<PasswordChangeOutcome> {
  const problem = passwordProblem(input.next);
  if (problem !== null) return { ok: false, reason: 'password', problem };
  const attempt = { password: input.current, ip: input.ip, deviceToken: input.deviceToken };
  const checked = await checkCurrentPassword(deps, org, user, attempt);
  if (!checked.ok) return checked;
  const passwordHash = await hashPassword(input.next);
  const keep = input.currentBrowserSecret === null ? null : sha256(input.currentBrowserSecret);
  return deps.unitOfWork.run(async (tx) => {
    const now = clock.now();
    await setPasswordHash(tx, user.id, passwordHash, now);
    await retireMailTokens(tx, user.id, 'reset', now);
    const actor = { kind: 'user', id: user.id } as const;
    const ids = await liveSessionIds(tx, { userId: user.id }, now);
    // This browser's own sessions end too, but it stays signed in: its clients are not told.
    const kept = new Set(keep === null ? [] : await liveSessionIds(tx, { browserSession: keep }, now));
    const ended = await revokeSessions(tx, ids, actor, now);
    // The other browsers are signed out: the clients they signed into, and those of the sessions
    // that outlived their browser sign-in (a device's), are told (back-channel).
    await propagateLogout(
      tx,
      { userId: user.id, except: keep },
      now,
      ended.filter((s) => !kept.has(s.id)),
    );
    await deleteOtherBrowserSessions(tx, user.id, keep);
    await auditPassword(tx, user, 'change', ids.length, now);
    return { ok: true, sessionsEnded: ids.length };
  });
}
