import { sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { countAttempts, settleAttempts } from '../../storage/repos/login-attempts.js';
import { emailKey } from '../../storage/repos/users.js';

/**
 * Password attempts allowed per fixed window, counted before the password is checked, so a burst
 * of parallel guesses cannot slip past a limit while argon2 runs.
 *
 * A stranger (a browser without the account's device cookie, device-cookies.ts) meets three:
 * - `perAccountAndIp` per account **and** address (15 min): the limit a guesser meets first. It
 *   locks out only that address, so the real user signing in from elsewhere is not refused.
 * - `perIp` per address across accounts (15 min): one address trying many accounts.
 * - `perAccount` per account across addresses (1 hour): a slow, high ceiling against a
 *   distributed guesser, the only limit that refuses the right password from a fresh address.
 *
 * The user's own browser (a valid device cookie of that account) meets only `perDevice` (15 min),
 * counted per device: strangers cannot fill it, so they cannot lock the user out, and a stolen
 * cookie guesses no faster than one address does.
 */
export const LOGIN_LIMITS = Object.freeze({
  perAccountAndIp: 10,
  perIp: 100,
  windowMs: 15 * 60 * 1000,
  perAccount: 100,
  accountWindowMs: 60 * 60 * 1000,
  perDevice: 10,
});

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterS: number };

/** An attempt the throttle refused, as every check it guards answers it: try again in `retryAfterS`. */
export type Throttled = { ok: false; reason: 'throttled'; retryAfterS: number };

/** The refusal a verdict that did not allow the attempt stands for. */
export const throttled = (verdict: { retryAfterS: number }): Throttled => ({
  ok: false,
  reason: 'throttled',
  retryAfterS: verdict.retryAfterS,
});

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * The keys a requester's attempts are counted under, each kind named by the throttle (the login's,
 * the mails'): the client address as it is; the typed address hashed, alone and with the client
 * address, so the table holds no typed addresses, known or not; the device's nonce (part of its
 * cookie) hashed too.
 */
export function requesterKeys(names: { ip: string; address: string; addressIp: string; device: string }) {
  return {
    ip: (ip: string) => `${names.ip}:${ip}`,
    address: (email: string) => `${names.address}:${sha256(emailKey(email))}`,
    addressIp: (email: string, ip: string) => `${names.addressIp}:${sha256(`${emailKey(email)}\n${ip}`)}`,
    device: (deviceId: string) => `${names.device}:${sha256(deviceId)}`,
  };
}

const KEYS = requesterKeys({ ip: 'ip', address: 'account', addressIp: 'account-ip', device: 'device' });

const byIp = (ip: string): Limit => ({
  key: KEYS.ip(ip),
  max: LOGIN_LIMITS.perIp,
  windowMs: LOGIN_LIMITS.windowMs,
});

/**
 * Counts one attempt against each of `limits` (one statement for all of them) and refuses at the
 * first one, in order, over its maximum; the limits after it get their attempt back at once (a
 * refused attempt spends no more of the account's ceiling). Between the two statements those later
 * counts are one higher: a refused request in flight holds one attempt of them for that moment.
 */
export async function reserveLimits(
  db: Handle,
  orgId: string,
  now: number,
  limits: Limit[],
): Promise<ThrottleVerdict> {
  const counts = await countAttempts(db, orgId, limits, now);
  const refused = limits.findIndex(({ key, max }) => (counts.get(key)?.attempts ?? 0) > max);
  if (refused === -1) return { allowed: true };
  const { key, windowMs } = limits[refused] as Limit;
  const later = limits.slice(refused + 1).map((limit) => limit.key);
  await settleAttempts(db, orgId, { refund: later });
  const windowStart = counts.get(key)?.windowStart ?? now;
  return { allowed: false, retryAfterS: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

type Window = Omit<Limit, 'key'>;

/**
 * The throttle of requests for a typed address (password attempts, mails): each request is
 * counted, from the account's own device (`deviceId`, already checked to belong to it) against
 * that device only; from a stranger against the client address, the typed address at this client
 * address, then the typed address. Refuses at the first over its limit (reserveLimits).
 */
export function requesterThrottle(
  keys: ReturnType<typeof requesterKeys>,
  limits: { perDevice: Window; perIp: Window; perAddressAndIp: Window; perAddress: Window },
) {
  return (
    db: Handle,
    orgId: string,
    email: string,
    ip: string,
    now: number,
    deviceId: string | null = null,
  ): Promise<ThrottleVerdict> =>
    reserveLimits(
      db,
      orgId,
      now,
      deviceId !== null
        ? [{ key: keys.device(deviceId), ...limits.perDevice }]
        : [
            { key: keys.ip(ip), ...limits.perIp },
            { key: keys.addressIp(email, ip), ...limits.perAddressAndIp },
            { key: keys.address(email), ...limits.perAddress },
          ],
    );
}

/** Counts one password attempt (requesterThrottle): the account's device, else the IP, the account at the IP, the account. */
export const reserveLoginAttempt = requesterThrottle(KEYS, {
  perDevice: { max: LOGIN_LIMITS.perDevice, windowMs: LOGIN_LIMITS.windowMs },
  perIp: { max: LOGIN_LIMITS.perIp, windowMs: LOGIN_LIMITS.windowMs },
  perAddressAndIp: { max: LOGIN_LIMITS.perAccountAndIp, windowMs: LOGIN_LIMITS.windowMs },
  perAddress: { max: LOGIN_LIMITS.perAccount, windowMs: LOGIN_LIMITS.accountWindowMs },
});

/**
 * A correct password from the account's own device clears that device's count. From a stranger it
 * clears the account's count at this IP, and gives the IP and the account's ceiling their attempt
 * back. The ceiling keeps the failures: a sign-in does not reopen it.
 */
export async function loginSucceeded(
  db: Handle,
  orgId: string,
  email: string,
  ip: string,
  deviceId: string | null = null,
): Promise<void> {
  if (deviceId !== null) return settleAttempts(db, orgId, { clear: [KEYS.device(deviceId)] });
  await settleAttempts(db, orgId, {
    clear: [KEYS.addressIp(email, ip)],
    refund: [KEYS.ip(ip), KEYS.address(email)],
  });
}

/**
 * Second-factor codes allowed per user per window (TOTP or recovery). Counted apart from the
 * password: a correct password does not give the codes their attempts back.
 */
export const SECOND_FACTOR_LIMITS = Object.freeze({ perUser: 5, windowMs: LOGIN_LIMITS.windowMs });

const secondFactorKey = (userId: string) => `otp:${userId}`;

/** Counts one code attempt against the IP, then the user; refuses once either is over its limit. */
export function reserveSecondFactorAttempt(
  db: Handle,
  orgId: string,
  userId: string,
  ip: string,
  now: number,
): Promise<ThrottleVerdict> {
  return reserveLimits(db, orgId, now, [
    byIp(ip),
    {
      key: secondFactorKey(userId),
      max: SECOND_FACTOR_LIMITS.perUser,
      windowMs: SECOND_FACTOR_LIMITS.windowMs,
    },
  ]);
}

/** A correct code clears the user's count and gives the IP its attempt back. */
export async function secondFactorSucceeded(
  db: Handle,
  orgId: string,
  userId: string,
  ip: string,
): Promise<void> {
  await settleAttempts(db, orgId, { clear: [secondFactorKey(userId)], refund: [KEYS.ip(ip)] });
}
