import type { FederationDeps } from './federation/deps.js';

/**
 * Everything the domain's operations may be handed, as the runtime builds it: the bag of the
 * feature highest in the order, which holds every lower feature's (core-deps.ts, then each
 * feature's deps.ts). The HTTP layer and the worker hold this; a domain feature names only its own.
 */
export type Deps = FederationDeps;
