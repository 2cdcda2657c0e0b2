import type { FederationDeps } from '../federation/deps.js';
import type { Org, ScimDirectory } from '../types.js';

/** What domain/scim/ needs from the runtime: the features' below it; it has no service of its own. */
export type ScimDeps = FederationDeps;

/** Who is calling the SCIM API: the directory its bearer token belongs to, in its org. */
export interface ScimCaller {
  org: Org;
  directory: ScimDirectory;
}
