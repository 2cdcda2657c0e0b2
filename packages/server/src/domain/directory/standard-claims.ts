import { fail } from '../errors.js';
import { type PostalAddress, STANDARD_CLAIM_KEYS, type StandardClaims } from '../types.js';
import { checkName } from './validate.js';

/**
 * The rules of the OIDC Core §5.1 claims a user may be given (the management API, the console and
 * the user's own profile page all pass through here): URLs are http(s), `birthdate` is `YYYY` or
 * `YYYY-MM-DD`, `zoneinfo` an IANA time zone, `locale` a BCP 47 tag (stored canonical: `en-US`),
 * `phone_number` E.164, the address a §5.1.1 object of known strings. A refusal is `invalid_body`
 * naming the claim.
 */

const MAX_URL = 2000;

/** An absolute http or https URL of at most 2000 characters, without user name or password. */
export function checkClaimUrl(field: string, value: string): string {
  const v = value.trim();
  let url: URL | null = null;
  try {
    url = v.length <= MAX_URL ? new URL(v) : null;
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    fail('user.claim_url.invalid', `${field} must be an http or https URL of at most ${MAX_URL} characters`);
  return v;
}

/** OIDC `picture` as a change: an http(s) URL, or null (an empty string clears like null). */
export const checkPicture = (value: string | null): string | null =>
  value === null || value.trim() === '' ? null : checkClaimUrl('picture', value);

const leapYear = (y: number) => y === 0 || (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0));
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `YYYY`, or `YYYY-MM-DD` a calendar date (year `0000` when left out, §5.1). */
export function checkBirthdate(value: string): string {
  const v = value.trim();
  const match = /^(\d{4})(?:-(\d{2})-(\d{2}))?$/.exec(v);
  const problem = () => fail('user.birthdate.invalid', 'birthdate must be YYYY or YYYY-MM-DD, a real date');
  if (!match) return problem();
  if (match[2] === undefined) return v;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const days = m === 2 && !leapYear(y) ? 28 : (DAYS[m - 1] ?? 0);
  if (d < 1 || d > days) return problem();
  return v;
}

const ZONE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** A time zone of the IANA database this runtime knows (`Europe/Paris`, `UTC`); offsets are not zones. */
export function checkZoneinfo(value: string): string {
  const v = value.trim();
  const known = () => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  };
  if (v.length > 100 || !ZONE.test(v) || !known())
    fail('user.zoneinfo.invalid', 'zoneinfo must be an IANA time zone such as Europe/Paris');
  return v;
}

/** A BCP 47 language tag, stored in its canonical case (`fr-ca` → `fr-CA`). */
export function checkLocale(value: string): string {
  const v = value.trim();
  try {
    const [canonical] = v.length <= 35 ? Intl.getCanonicalLocales(v) : [];
    if (canonical !== undefined) return canonical;
  } catch {
    // refused below
  }
  return fail('user.locale.invalid', 'locale must be a BCP 47 language tag such as fr-CA');
}

/** E.164: `+`, a country code, at most 15 digits in all. */
export function checkPhoneNumber(value: string): string {
  const v = value.trim();
  if (!/^\+[1-9]\d{1,14}$/.test(v))
    fail('user.phone_number.invalid', 'phone_number must be E.164, such as +14155550100');
  return v;
}

const ADDRESS_PARTS = [
  'formatted',
  'street_address',
  'locality',
  'region',
  'postal_code',
  'country',
] as const;
/** The two parts §5.1.1 lets span lines. */
const MULTILINE = new Set(['formatted', 'street_address']);

/** A §5.1.1 address: only its six parts, strings of 1-200 characters (lines only where §5.1.1 allows). */
export function checkAddress(value: Record<string, unknown>): PostalAddress | null {
  const address: Record<string, string> = {};
  for (const [part, raw] of Object.entries(value)) {
    if (!(ADDRESS_PARTS as readonly string[]).includes(part))
      fail('user.address.unknown_part', `address.${part} is not a part of an address`);
    if (raw === null || raw === undefined) continue;
    if (typeof raw !== 'string') return fail('user.address.not_string', `address.${part} must be a string`);
    const text = raw.replace(/\r\n/g, '\n').trim();
    if (text === '') continue;
    const lines = MULTILINE.has(part) ? text.split('\n') : [text];
    for (const line of lines) checkName(`address.${part}`, line.trim() === '' ? '-' : line, 200);
    if (text.length > 500) fail('user.address.too_long', `address.${part} must be at most 500 characters`);
    address[part] = text;
  }
  return Object.keys(address).length === 0 ? null : (address as PostalAddress);
}

/** A short text claim (nickname, middle name, preferred username, gender): 1-100 characters. */
export const checkClaimText = (field: string, value: string): string => checkName(field, value, 100);

/** What may change of a user's standard claims: null clears one, absent keeps it. */
export type StandardClaimChanges = {
  [K in keyof StandardClaims]?: K extends 'address'
    ? Record<string, unknown> | null
    : K extends 'phoneNumberVerified'
      ? boolean
      : string | null;
};

const RULES: {
  [K in Exclude<keyof StandardClaims, 'address' | 'phoneNumberVerified'>]: (v: string) => string;
} = {
  middleName: (v) => checkClaimText('middle_name', v),
  nickname: (v) => checkClaimText('nickname', v),
  preferredUsername: (v) => checkClaimText('preferred_username', v),
  profile: (v) => checkClaimUrl('profile', v),
  website: (v) => checkClaimUrl('website', v),
  gender: (v) => checkClaimText('gender', v),
  birthdate: checkBirthdate,
  zoneinfo: checkZoneinfo,
  locale: checkLocale,
  phoneNumber: checkPhoneNumber,
};

/**
 * `before` with `changes` applied, each checked by its rule; an empty string clears like null. A
 * new phone number is unverified unless the same change vouches for it (`phoneNumberVerified`).
 */
export function applyStandardClaims(before: StandardClaims, changes: StandardClaimChanges): StandardClaims {
  const after: StandardClaims = { ...before };
  for (const key of Object.keys(RULES) as (keyof typeof RULES)[]) {
    const value = changes[key];
    if (value === undefined) continue;
    after[key] = value === null || value.trim() === '' ? null : RULES[key](value);
  }
  if (changes.address !== undefined)
    after.address = changes.address === null ? null : checkAddress(changes.address);
  if (after.phoneNumber !== before.phoneNumber) after.phoneNumberVerified = false;
  if (changes.phoneNumberVerified !== undefined) after.phoneNumberVerified = changes.phoneNumberVerified;
  if (after.phoneNumber === null && changes.phoneNumberVerified === true)
    fail('user.phone_verified.no_phone', 'phone_number_verified needs a phone_number');
  if (after.phoneNumber === null) after.phoneNumberVerified = false;
  return after;
}

/** Whether two users' standard claims are the same (nothing to write, nothing to audit). */
export function sameStandardClaims(a: StandardClaims, b: StandardClaims): boolean {
  return STANDARD_CLAIM_KEYS.every((k) =>
    k === 'address' ? JSON.stringify(a.address) === JSON.stringify(b.address) : a[k] === b[k],
  );
}
