import type { CoreDeps } from '../core-deps.js';

/**
 * What domain/audit/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type AuditDeps = CoreDeps;
