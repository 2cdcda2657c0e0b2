import { type RefusalCode, type RefusalReport, refusal } from './refusal.js';
import type { AccessTokenClaims, Verified } from './types.js';

/**
 * The claim rules of the spec's verification table, applied to a payload whose signature already
 * verified. Each rule returns the verified result or `null`; nothing here throws. Why a rule refused
 * is told to `report`, when one is given (the application's `onRefused`; never the response).
 *
 * | Token | Accepted when |
 * |---|---|
 * | typ `user` | `iss`, `exp` valid; `aud` includes clientId; `sub` starts with `usr_`; `tnt` starts with `tnt_` |
 * | typ `client` (only if accepted) | `iss`, `exp` valid; `aud` equals the token's own `sub`; `sub` is in trustedClients |
 * | anything else (console tokens, unknown `typ`, malformed claim) | null |
 *
 * With a `resource` (DESIGN §15, RFC 8707), `aud` must include it as well: a user token's `aud` then
 * includes the resource (and clientId, when one is configured), and a machine token's `aud` is
 * `[sub, resource]`, its `sub` in trustedClients when those are configured. The issuer put the resource
 * there only for a grant that named it, so the resource server reads the decision rather than making it.
 *
 * A malformed claim includes an `azp` that is not a string and an `act` without a string `sub`:
 * both are typed on the result, so they are checked before it is returned.
 */

/**
 * What the rules compare against: the verifier's validated options.
 *
 * @example
 * ```ts
 * const rules: ClaimRules = {
 *   issuer: 'https://acme.example.com/', clientId: 'cli_web',
 *   acceptUser: true, acceptClient: false, trustedClients: new Set(), resource: null,
 * };
 * ```
 */
export interface ClaimRules {
  readonly issuer: string;
  /** Null only with a `resource`: any client of the issuer whose token names the resource. */
  readonly clientId: string | null;
  readonly acceptUser: boolean;
  readonly acceptClient: boolean;
  /** Null only with a `resource` and no trustedClients option: any client the issuer bound to it. */
  readonly trustedClients: ReadonlySet<string> | null;
  /** The RFC 8707 resource indicator `aud` must include, or null (the spec's rules alone). */
  readonly resource: string | null;
}

/**
 * Applies the table to a payload at `nowSeconds`. `exp` must be a finite number strictly after now,
 * `nbf` (when present) at or before now, `iat` (when present) a finite number. There is no clock
 * tolerance: the issuer and this service are expected to keep time.
 *
 * @example
 * ```ts
 * const verified = applyClaimRules(payload, rules, Date.now() / 1000);
 * ```
 */
export function applyClaimRules(
  payload: Record<string, unknown>,
  rules: ClaimRules,
  nowSeconds: number,
  report?: RefusalReport,
): Verified | null {
  const no = (code: RefusalCode): null => {
    report?.(refusal(code));
    return null;
  };
  if (payload.iss !== rules.issuer) return no('wrong_issuer');
  if (!isFiniteNumber(payload.exp)) return no('malformed_claims');
  if (!(nowSeconds < payload.exp)) return no('expired');
  if (payload.nbf !== undefined && !isFiniteNumber(payload.nbf)) return no('malformed_claims');
  if (payload.nbf !== undefined && !(payload.nbf <= nowSeconds)) return no('not_yet_valid');
  if (payload.iat !== undefined && !isFiniteNumber(payload.iat)) return no('malformed_claims');
  if (payload.jti !== undefined && typeof payload.jti !== 'string') return no('malformed_claims');

  const { sub, aud } = payload;
  if (typeof sub !== 'string' || !isAudience(aud)) return no('malformed_claims');

  if (payload.typ === 'user' && rules.acceptUser) {
    const { tnt } = payload;
    if (!hasIdPrefix(sub, 'usr_') || typeof tnt !== 'string' || !hasIdPrefix(tnt, 'tnt_')) {
      return no('malformed_claims');
    }
    if (rules.clientId !== null && !audienceIncludes(aud, rules.clientId)) return no('wrong_audience');
    if (rules.resource !== null && !audienceIncludes(aud, rules.resource)) return no('wrong_audience');
    if (!optionalDelegation(payload)) return no('malformed_claims');
    const claims = deepFreeze(payload) as AccessTokenClaims;
    return Object.freeze({ kind: 'user', userId: sub, tenantId: tnt, claims });
  }

  if (payload.typ === 'client' && rules.acceptClient) {
    if (rules.trustedClients !== null && !rules.trustedClients.has(sub)) return no('untrusted_client');
    if (rules.resource === null) {
      if (!(aud === sub || (Array.isArray(aud) && aud.length === 1 && aud[0] === sub))) {
        return no('wrong_audience');
      }
    } else if (
      !(Array.isArray(aud) && aud.length === 2 && aud.includes(sub) && aud.includes(rules.resource))
    ) {
      return no('wrong_audience');
    }
    const claims = deepFreeze(payload) as AccessTokenClaims;
    return Object.freeze({ kind: 'client', clientId: sub, claims });
  }

  // A user or machine token this verifier was not set up to accept; anything else (a console token,
  // an unknown typ) is a token of another kind altogether.
  return no(
    payload.typ === 'user' || payload.typ === 'client' ? 'token_type_not_accepted' : 'malformed_claims',
  );
}

/** `azp` (promoted tokens) is a string and `act` (impersonation) an object with a string `sub`, when present. */
function optionalDelegation(payload: Record<string, unknown>): boolean {
  const { azp, act } = payload;
  if (azp !== undefined && typeof azp !== 'string') return false;
  if (act === undefined) return true;
  return typeof act === 'object' && act !== null && typeof (act as { sub?: unknown }).sub === 'string';
}

function audienceIncludes(aud: string | readonly string[], value: string): boolean {
  return aud === value || (Array.isArray(aud) && aud.includes(value));
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** `aud` is a string, or a non-empty array of strings; anything else is a malformed claim. */
function isAudience(value: unknown): value is string | string[] {
  if (typeof value === 'string') return true;
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string');
}

/** An id is its prefix followed by something: a bare `usr_` names nobody. */
function hasIdPrefix(value: string, prefix: string): boolean {
  return value.length > prefix.length && value.startsWith(prefix);
}

/** Results are shared between requests that carry the same token, so no route may change them. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
