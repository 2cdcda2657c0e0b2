/**
 * The public face of domain/keys/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { KeyRing, listKeys, type PublishedKeys, publicJwks, rotateKeys } from './keys.js';
export { secretOpensDatabase } from './secret-check.js';
