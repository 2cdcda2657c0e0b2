import type { Dialect } from '../storage/handle.js';
import type { CustomDomainsDeps } from './custom-domains/deps.js';

/**
 * Everything the domain's operations may be handed, as the runtime builds it: the bag of the
 * feature highest in the order, which holds every lower feature's (core-deps.ts, then each
 * feature's deps.ts), and which database serves, for /healthz and /readyz to name (no feature reads
 * it: what differs by database is storage's). The HTTP layer and the worker hold this; a domain
 * feature names only its own.
 */
export interface Deps extends CustomDomainsDeps {
  readonly dialect: Dialect;
}
