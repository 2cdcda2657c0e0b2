import type { ResourcesDeps } from '../resources/deps.js';

/**
 * What domain/tokens/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type TokensDeps = ResourcesDeps;
