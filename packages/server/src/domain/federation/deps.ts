import type { TeamsDeps } from '../teams/deps.js';

/**
 * What domain/federation/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type FederationDeps = TeamsDeps;
