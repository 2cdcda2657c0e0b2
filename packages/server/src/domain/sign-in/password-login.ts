import { verifyPassword } from '../../crypto/passwords.js';
import { findUserWithPasswordHash } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import type { Org, User } from '../types.js';
import type { SignInDeps } from './deps.js';
import { trustedDevice } from './device-cookies.js';
import { loginSucceeded, reserveLoginAttempt, type Throttled, throttled } from './login-throttle.js';

export type LoginOutcome = { ok: true; user: User } | { ok: false; reason: 'invalid' } | Throttled;

/**
 * Checks an email and password (argon2id). Unknown account and wrong password cost the same and
 * answer the same; from a stranger both count against the IP, the account at that IP and the
 * account's ceiling, from the account's own browser (its device cookie, `deviceToken`) against
 * that device only (login-throttle.ts).
 */
export async function checkPassword(
  deps: SignInDeps,
  org: Org,
  email: string,
  password: string,
  ip: string,
  deviceToken: string | null = null,
): Promise<LoginOutcome> {
  const deviceId = (await trustedDevice(deps, org, deviceToken, email))?.id ?? null;
  const verdict = await reserveLoginAttempt(deps.store, org.id, email, ip, clock.now(), deviceId);
  if (!verdict.allowed) return throttled(verdict);
  const found = email.length <= 254 ? await findUserWithPasswordHash(deps.store, org.id, email) : null;
  const user = found?.user ?? null;
  const matches = await verifyPassword(password, found?.passwordHash ?? null);
  // A disabled user is refused like a wrong password: the page tells no one the account exists.
  if (!user || !matches || user.disabled) return { ok: false, reason: 'invalid' };
  await loginSucceeded(deps.store, org.id, email, ip, deviceId);
  return { ok: true, user };
}
