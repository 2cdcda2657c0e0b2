import type { FederationDeps } from '../federation/deps.js';

/**
 * What domain/enterprise-access/ needs from the runtime: the connections' providers and their kept
 * keys (federation), and below them the token and resource rules. Its functions take this (or
 * less); a caller holding more passes it as is.
 */
export type EnterpriseAccessDeps = FederationDeps;
