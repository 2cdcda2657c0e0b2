/**
 * The `WWW-Authenticate: Bearer` challenges of a resource server (RFC 6750 §3, RFC 9728 §5.1), built
 * in one place so `authenticate` and `requireScopes` say the same realm and metadata address.
 */

/** What a challenge names besides its error: the realm, and the RFC 9728 metadata URL when configured. */
export interface ChallengeParts {
  readonly realm: string;
  readonly resourceMetadata: string | null;
}

/** Printable ASCII without `"` or `\`: a value that goes inside a quoted header parameter as it is. */
export const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * `Bearer realm="…"[, error="…"][, scope="…"][, resource_metadata="…"]`.
 *
 * @example
 * ```ts
 * bearerChallenge({ realm: 'files', resourceMetadata: null }); // 'Bearer realm="files"'
 * ```
 */
export function bearerChallenge(parts: ChallengeParts, error?: string, scope?: string): string {
  let challenge = `Bearer realm="${parts.realm}"`;
  if (error !== undefined) challenge += `, error="${error}"`;
  if (scope !== undefined) challenge += `, scope="${scope}"`;
  if (parts.resourceMetadata !== null) challenge += `, resource_metadata="${parts.resourceMetadata}"`;
  return challenge;
}

/**
 * The challenge parts of each request `authenticate` let through, for `requireScopes` further down.
 * Module-private and keyed by the context object, like the principal record.
 */
const challenges = new WeakMap<object, ChallengeParts>();

export function rememberChallenge(ctx: object, parts: ChallengeParts): void {
  challenges.set(ctx, parts);
}

export function challengeOf(ctx: object): ChallengeParts | undefined {
  return challenges.get(ctx);
}
