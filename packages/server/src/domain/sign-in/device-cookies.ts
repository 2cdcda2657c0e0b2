import { constantTimeEqual, hmac } from '../../crypto/derived-keys.js';
import { newSecret } from '../../crypto/random.js';
import { findUserByEmail } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import type { Org, User } from '../types.js';
import type { SignInDeps } from './deps.js';

/**
 * Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a browser that
 * has signed in as a user carries a token naming that user, signed with a key derived from
 * TESSERA_SECRET. Presented with that user's address, it takes the attempt off the account's
 * shared limits (which strangers can fill) and counts it against the device alone. It is not a
 * credential: the password is still checked, and a guess from it is still throttled.
 *
 * The token is `<user id>.<issued at, base36>.<nonce>.<mac>`, the mac an HMAC-SHA256 over the org,
 * the user, the time and the nonce: another org, another user, an edited field or another key
 * (another TESSERA_SECRET) all fail. A token is good for a year after the sign-in that issued it.
 */
export const DEVICE_COOKIE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** A device token whose signature checks out, for this org, within its year. */
export interface Device {
  readonly userId: string;
  /** The token's nonce: names the device's own throttle counter (stored hashed). */
  readonly id: string;
}

const mac = (deps: SignInDeps, orgId: string, userId: string, issuedAt: string, nonce: string) =>
  hmac(deps.pageKeys.device, ['device', orgId, userId, issuedAt, nonce]);

/** A new device token for `userId`, issued now (after a completed sign-in). */
export function issueDeviceToken(deps: SignInDeps, org: Org, userId: string): string {
  const issuedAt = clock.now().toString(36);
  const nonce = newSecret('', 18);
  return [userId, issuedAt, nonce, mac(deps, org.id, userId, issuedAt, nonce)].join('.');
}

/** The device a token names, or null when it is absent, malformed, forged, of another org or too old. */
export function readDeviceToken(deps: SignInDeps, org: Org, token: string | null): Device | null {
  if (token === null || token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [userId, issuedAt, nonce, presented] = parts as [string, string, string, string];
  if (!constantTimeEqual(presented, mac(deps, org.id, userId, issuedAt, nonce))) return null;
  const issued = Number.parseInt(issuedAt, 36);
  const now = clock.now();
  if (!Number.isSafeInteger(issued) || issued > now || now - issued >= DEVICE_COOKIE_TTL_MS) return null;
  return { userId, id: nonce };
}

/**
 * The device of `token` when it was issued to the user who has `email` in this org, else null (a
 * stranger). Looks the address up only for a token whose signature checks out, so a stranger's
 * request costs no lookup, and a known and an unknown address answer alike to anyone but the
 * user's own browser.
 */
export async function trustedDevice(
  deps: SignInDeps,
  org: Org,
  token: string | null,
  email: string,
): Promise<Device | null> {
  const device = readDeviceToken(deps, org, token);
  if (device === null || email.length > 254) return null;
  const user = await findUserByEmail(deps.store, org.id, email);
  return user !== null && !user.disabled && user.id === device.userId ? device : null;
}

/** The device of `token` when it was issued to `user` (already known, e.g. on the profile page), else null. */
export function deviceOfUser(deps: SignInDeps, org: Org, token: string | null, user: User): Device | null {
  const device = readDeviceToken(deps, org, token);
  return device !== null && device.userId === user.id ? device : null;
}
