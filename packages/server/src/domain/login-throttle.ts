import { sha256 } from '../crypto/random.js';
import type { Db } from '../storage/db.js';
import { clearAttempts, countAttempt, refundAttempt } from '../storage/repos/login-attempts.js';
import { emailKey } from '../storage/repos/users.js';

/**
 * Password attempts allowed per fixed window. Counted before the password is checked, so a
 * burst of parallel guesses cannot slip past the limit while argon2 runs.
 */
export const LOGIN_LIMITS = Object.freeze({
  perAccount: 10,
  perIp: 50,
  windowMs: 15 * 60 * 1000,
});

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterS: number };

// The account key is hashed: the table then holds no typed addresses, known or not.
const accountKey = (email: string) => `account:${sha256(emailKey(email))}`;
const ipKey = (ip: string) => `ip:${ip}`;

function refused(windowStart: number, now: number): ThrottleVerdict {
  return {
    allowed: false,
    retryAfterS: Math.max(1, Math.ceil((windowStart + LOGIN_LIMITS.windowMs - now) / 1000)),
  };
}

/** Counts one attempt against the IP, then the account; refuses once either is over its limit. */
export async function reserveLoginAttempt(
  db: Db,
  orgId: string,
  email: string,
  ip: string,
  now: number,
): Promise<ThrottleVerdict> {
  const byIp = await countAttempt(db, orgId, ipKey(ip), now, LOGIN_LIMITS.windowMs);
  if (byIp.attempts > LOGIN_LIMITS.perIp) return refused(byIp.windowStart, now);
  const byAccount = await countAttempt(db, orgId, accountKey(email), now, LOGIN_LIMITS.windowMs);
  if (byAccount.attempts > LOGIN_LIMITS.perAccount) return refused(byAccount.windowStart, now);
  return { allowed: true };
}

/** A correct password clears the account's count and gives the IP its attempt back. */
export async function loginSucceeded(db: Db, orgId: string, email: string, ip: string): Promise<void> {
  await clearAttempts(db, orgId, accountKey(email));
  await refundAttempt(db, orgId, ipKey(ip));
}

/**
 * Second-factor codes allowed per user per window (TOTP or recovery). Counted apart from the
 * password: a correct password does not give the codes their attempts back.
 */
export const SECOND_FACTOR_LIMITS = Object.freeze({ perUser: 5, windowMs: LOGIN_LIMITS.windowMs });

const secondFactorKey = (userId: string) => `otp:${userId}`;

/** Counts one code attempt against the IP, then the user; refuses once either is over its limit. */
export async function reserveSecondFactorAttempt(
  db: Db,
  orgId: string,
  userId: string,
  ip: string,
  now: number,
): Promise<ThrottleVerdict> {
  const byIp = await countAttempt(db, orgId, ipKey(ip), now, LOGIN_LIMITS.windowMs);
  if (byIp.attempts > LOGIN_LIMITS.perIp) return refused(byIp.windowStart, now);
  const byUser = await countAttempt(db, orgId, secondFactorKey(userId), now, SECOND_FACTOR_LIMITS.windowMs);
  if (byUser.attempts > SECOND_FACTOR_LIMITS.perUser) return refused(byUser.windowStart, now);
  return { allowed: true };
}

/** A correct code clears the user's count and gives the IP its attempt back. */
export async function secondFactorSucceeded(
  db: Db,
  orgId: string,
  userId: string,
  ip: string,
): Promise<void> {
  await clearAttempts(db, orgId, secondFactorKey(userId));
  await refundAttempt(db, orgId, ipKey(ip));
}
