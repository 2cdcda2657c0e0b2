import type { PageKeys } from '../../crypto/derived-keys.js';
import type { TokensDeps } from '../tokens/deps.js';

/**
 * What domain/sign-in/ needs from the runtime: what the features below it need and its own
 * services. Its functions take this (or less); a caller holding more passes it as is.
 */
export interface SignInDeps extends TokensDeps {
  /** The cookie-signing and CSRF keys of the hosted pages, derived once from the master secret. */
  readonly pageKeys: PageKeys;
}
