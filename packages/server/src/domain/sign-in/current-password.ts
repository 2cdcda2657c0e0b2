import { verifyPassword } from '../../crypto/passwords.js';
import { findPasswordHash } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import type { Org, User } from '../types.js';
import type { SignInDeps } from './deps.js';
import { deviceOfUser } from './device-cookies.js';
import { loginSucceeded, reserveLoginAttempt, type Throttled, throttled } from './login-throttle.js';

/** The word a signed-in user gives for a change of their account, and where it comes from. */
export interface CurrentPasswordAttempt {
  password: string;
  ip: string;
  /** This browser's device cookie: its own counter instead of the account's (login-throttle.ts). */
  deviceToken: string | null;
}

export type CurrentPasswordCheck = { ok: true } | { ok: false; reason: 'wrong_password' } | Throttled;

/**
 * Checks a signed-in user's current password before a change of their account (their password,
 * their address), under the login throttle like a sign-in, so the form is no way around it; a
 * right password gives the attempt back.
 */
export async function checkCurrentPassword(
  deps: SignInDeps,
  org: Org,
  user: User,
  attempt: CurrentPasswordAttempt,
): Promise<CurrentPasswordCheck> {
  const deviceId = deviceOfUser(deps, org, attempt.deviceToken, user)?.id ?? null;
  const verdict = await reserveLoginAttempt(
    deps.store,
    org.id,
    user.email,
    attempt.ip,
    clock.now(),
    deviceId,
  );
  if (!verdict.allowed) return throttled(verdict);
  const matches = await verifyPassword(attempt.password, await findPasswordHash(deps.store, user.id));
  if (!matches) return { ok: false, reason: 'wrong_password' };
  await loginSucceeded(deps.store, org.id, user.email, attempt.ip, deviceId);
  return { ok: true };
}
