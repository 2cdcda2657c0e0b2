import { fail } from '../../errors.js';
import type { AuthorizationRequest } from '../../types.js';
import { promptsSignIn } from './prompt.js';

/** Larger values are kept as this (about 68 years): no sign-in is that old. */
const LONGEST_MAX_AGE_S = 2 ** 31 - 1;

/**
 * OIDC Core §3.1.2.1 `max_age`: the seconds that may have passed since the person last signed in
 * (actively, with a password, passkey or second factor); 0 means sign in again now. Decimal digits
 * only; anything else is `invalid_request`.
 */
export function parseMaxAge(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (!/^[0-9]{1,15}$/.test(value)) fail('authorize.max_age.invalid', 'max_age must be a number of seconds');
  return Math.min(Number(value), LONGEST_MAX_AGE_S);
}

/**
 * The oldest sign-in (`auth_time`, epoch ms) the request accepts: with `prompt=login` (or
 * `select_account`) or `max_age=0`, one made after the request was; with `max_age`, one at most
 * that many seconds before it. Null when any live sign-in will do.
 */
export function earliestSignIn(request: AuthorizationRequest): number | null {
  const limits: number[] = [];
  if (promptsSignIn(request.prompt)) limits.push(request.createdAt);
  if (request.maxAge !== null) limits.push(request.createdAt - request.maxAge * 1000);
  return limits.length === 0 ? null : Math.max(...limits);
}

/** Whether a browser session that signed in at `authTime` is recent enough for the request. */
export function signInRecentEnough(request: AuthorizationRequest, authTime: number): boolean {
  const earliest = earliestSignIn(request);
  return earliest === null || authTime >= earliest;
}
