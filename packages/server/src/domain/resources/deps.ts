import type { DirectoryDeps } from '../directory/deps.js';

/**
 * What domain/resources/ needs from the runtime: what the features below it need, nothing more. Its
 * functions take this (or less); a caller holding more passes it as is.
 */
export type ResourcesDeps = DirectoryDeps;
