import type { Handle } from '../storage/handle.js';
import { listApiResources } from '../storage/repos/api-resources.js';
import { ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S } from './tokens-policy.js';

/** The clock skew verifiers allow past a token's `exp`. */
const SKEW_S = 5 * 60;

/**
 * How long what an org signed now may still be presented: the longest lifetime of a token it issues
 * (an API resource may give its access tokens up to a day; ID tokens and the rest live 15 minutes or
 * less), plus the skew verifiers allow. A retired signing key stays published this long, and a host
 * the issuer left keeps serving its key set, discovery and introspection this long. Read at the
 * moment of the change: a lifetime raised later concerns tokens signed after it, by the keys then
 * active, on the issuer then current.
 */
export async function tokensOutliveMs(store: Handle, orgId: string): Promise<number> {
  const resources = await listApiResources(store, orgId);
  const longest = Math.max(ACCESS_TOKEN_TTL_S, ID_TOKEN_TTL_S, ...resources.map((r) => r.accessTokenTtl));
  return (longest + SKEW_S) * 1000;
}
