import type { FederationDeps } from '../federation/deps.js';

/** What domain/scim/ needs from the runtime: the features' below it; it has no service of its own. */
export type ScimDeps = FederationDeps;
