/**
 * The public face of domain/audit/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export type { Verb } from './audit.js';
export { listEvents } from './events.js';
