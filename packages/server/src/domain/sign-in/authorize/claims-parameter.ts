import { fail } from '../../errors.js';
import { ACR_FEDERATED, ACR_MFA, ACR_PASSWORD } from '../../tokens-policy.js';
import type { ClaimRequest, ClaimsRequest } from '../../types.js';

/**
 * OIDC Core §5.5 `claims`: a JSON object whose `userinfo` and `id_token` members name the claims
 * the client wants in each place, every one `null` or `{essential?, value?, values?}`. Other
 * members, and members of a claim's object other than those three, are ignored (§5.5: not
 * understood); a malformed parameter is `invalid_request`. The checked request is kept with the
 * authorization request and the session it opens (docs/sign-in.md, "The claims parameter").
 */

/** The parameter's longest accepted text, and the most claims one target may name. */
export const CLAIMS_PARAMETER_MAX_LENGTH = 4096;
const MAX_CLAIMS_PER_TARGET = 64;
const TARGETS = ['userinfo', 'id_token'] as const;

/** The `acr` values a person can reach signing in through an authorization request. */
const REACHABLE_ACRS: readonly string[] = [ACR_PASSWORD, ACR_MFA, ACR_FEDERATED];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function claimRequest(target: string, name: string, raw: unknown): ClaimRequest | null {
  if (raw === null) return null;
  if (!isObject(raw))
    return fail('authorize.claims.request_not_object', `claims.${target}.${name} must be null or an object`);
  const request: ClaimRequest = {};
  if (raw.essential !== undefined) {
    if (typeof raw.essential !== 'boolean')
      fail(
        'authorize.claims.essential_not_boolean',
        `claims.${target}.${name}.essential must be true or false`,
      );
    request.essential = raw.essential as boolean;
  }
  if (raw.value !== undefined) request.value = raw.value;
  if (raw.values !== undefined) {
    if (!Array.isArray(raw.values))
      fail('authorize.claims.values_not_array', `claims.${target}.${name}.values must be an array`);
    request.values = raw.values as unknown[];
  }
  return request;
}

/** The `acr` values an essential `acr` request accepts; null when `acr` is not asked for as essential. */
export function essentialAcrValues(claims: ClaimsRequest | null): string[] | null {
  const asked = [claims?.id_token?.acr, claims?.userinfo?.acr].filter(
    (r): r is ClaimRequest => r !== undefined && r !== null && r.essential === true,
  );
  if (asked.length === 0) return null;
  const listed = asked.flatMap((r) => [...(r.value === undefined ? [] : [r.value]), ...(r.values ?? [])]);
  // Essential without a value: any acr does (and every ID token carries one).
  return listed.length === 0 ? null : listed.filter((v): v is string => typeof v === 'string');
}

/**
 * Whether the request may be answered for `userId` (§5.5.1): a `sub` asked for with a `value`, in
 * either target, must be that person's id (a value that is no string is nobody's).
 */
export function subjectAllowed(claims: ClaimsRequest | null, userId: string): boolean {
  const asked = [claims?.id_token?.sub, claims?.userinfo?.sub];
  return asked.every((r) => r === undefined || r === null || r.value === undefined || r.value === userId);
}

/**
 * The checked `claims` parameter: given as the query's text, or as a request object's member
 * (already an object). Null when absent. An essential `acr` none of whose values a sign-in here
 * can reach is `unmet_authentication_requirements` at once (§5.5.1.1): no person is asked to
 * sign in for an answer that cannot be given.
 */
export function parseClaimsParameter(value: unknown): ClaimsRequest | null {
  if (value === undefined || value === null) return null;
  let json: unknown = value;
  if (typeof value === 'string') {
    if (value.length > CLAIMS_PARAMETER_MAX_LENGTH)
      fail('authorize.claims.too_long', `claims must be at most ${CLAIMS_PARAMETER_MAX_LENGTH} characters`);
    try {
      json = JSON.parse(value);
    } catch {
      return fail('authorize.claims.malformed', 'claims is not a JSON object');
    }
  }
  if (!isObject(json)) return fail('authorize.claims.not_object', 'claims is not a JSON object');
  const claims: ClaimsRequest = {};
  for (const target of TARGETS) {
    const members = json[target];
    if (members === undefined || members === null) continue;
    if (!isObject(members))
      return fail('authorize.claims.target_not_object', `claims.${target} must be an object`);
    const names = Object.keys(members);
    if (names.length > MAX_CLAIMS_PER_TARGET)
      fail('authorize.claims.too_many', `claims.${target} names more than ${MAX_CLAIMS_PER_TARGET} claims`);
    claims[target] = Object.fromEntries(names.map((n) => [n, claimRequest(target, n, members[n])]));
  }
  const acrs = essentialAcrValues(claims);
  if (acrs !== null && !acrs.some((acr) => REACHABLE_ACRS.includes(acr))) {
    fail('authorize.acr.unreachable', 'none of the essential acr values can be reached here');
  }
  return Object.keys(claims).length === 0 ? null : claims;
}

/** Whether the sign-in's `acr` answers the request's essential `acr` (§5.5.1.1); true when none is asked. */
export function acrSatisfies(claims: ClaimsRequest | null, acr: string): boolean {
  const acrs = essentialAcrValues(claims);
  return acrs === null || acrs.includes(acr);
}
