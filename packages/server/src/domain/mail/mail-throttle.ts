import { sha256 } from '../../crypto/random.js';
import type { Db } from '../../storage/db.js';
import { countAttempt } from '../../storage/repos/login-attempts.js';
import { emailKey } from '../../storage/repos/users.js';
import type { ThrottleVerdict } from '../sign-in/login-throttle.js';

/**
 * Mails people can make Tessera send (a password reset, a verification link again), per fixed
 * window, counted before anything is looked up, so a known and an unknown address are throttled
 * alike. Kept in the login throttle's table under keys of their own.
 *
 * - `perAddress` per typed address (hashed; 15 min): nobody floods one mailbox.
 * - `perIp` per client address across addresses (1 hour): one machine cannot mail many people.
 */
export const MAIL_LIMITS = Object.freeze({
  perAddress: 3,
  addressWindowMs: 15 * 60 * 1000,
  perIp: 20,
  ipWindowMs: 60 * 60 * 1000,
});

const ipKey = (ip: string) => `mail-ip:${ip}`;
const addressKey = (email: string) => `mail-address:${sha256(emailKey(email))}`;

/** Counts one mail against the IP, then the address; refuses at the first over its limit. */
export async function reserveMail(
  db: Db,
  orgId: string,
  email: string,
  ip: string,
  now: number,
): Promise<ThrottleVerdict> {
  const limits = [
    { key: ipKey(ip), max: MAIL_LIMITS.perIp, windowMs: MAIL_LIMITS.ipWindowMs },
    { key: addressKey(email), max: MAIL_LIMITS.perAddress, windowMs: MAIL_LIMITS.addressWindowMs },
  ];
  for (const { key, max, windowMs } of limits) {
    const count = await countAttempt(db, orgId, key, now, windowMs);
    if (count.attempts > max) {
      return {
        allowed: false,
        retryAfterS: Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000)),
      };
    }
  }
  return { allowed: true };
}
