import type { MailDeps } from '../mail/deps.js';

/**
 * What domain/teams/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type TeamsDeps = MailDeps;
