import type { AuditDeps } from '../audit/deps.js';

/**
 * What domain/log-streams/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type LogStreamDeps = AuditDeps;
