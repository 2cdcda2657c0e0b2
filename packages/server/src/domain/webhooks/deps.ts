import type { CoreDeps } from '../core-deps.js';

/**
 * What domain/webhooks/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type WebhooksDeps = CoreDeps;
