import type { PageKeys } from '../../crypto/derived-keys.js';
import type { CredentialCache } from '../credential-cache.js';
import type { TokensDeps } from '../tokens/deps.js';

/**
 * What domain/sign-in/ needs from the runtime: what the features below it need and its own
 * services. Its functions take this (or less); a caller holding more passes it as is.
 */
export interface SignInDeps extends TokensDeps {
  /** The cookie-signing and CSRF keys of the hosted pages, derived once from the master secret. */
  readonly pageKeys: PageKeys;
  /**
   * Whether each org requires a second factor, which every password sign-in reads, kept until a
   * change is committed (domain/credential-cache.ts; migration 060 announces `org_sign_in_policies`).
   */
  readonly signInPolicies?: CredentialCache<boolean>;
}
