import type { CoreDeps } from '../core-deps.js';
import type { CredentialCache } from '../credential-cache.js';
import type { MachineClient, ServiceAccountBinding } from '../types.js';
import type { KeyRing, PublishedKeys } from './keys.js';

/**
 * What domain/keys/ needs from the runtime: what the features below it need and its own
 * services. Its functions take this (or less); a caller holding more passes it as is.
 */
export interface KeysDeps extends CoreDeps {
  /** The org's signing keys, unsealed and kept per process (keys.ts). */
  readonly keyRing: KeyRing;
  /** The client_credentials lookups, kept until a change is committed (`tessera serve` only). */
  readonly credentials?: CredentialCache<MachineClient>;
  /** Each org's published keys, which verifying a token reads, kept by the same rule (`tessera serve` only). */
  readonly keySets?: CredentialCache<PublishedKeys>;
  /** Service accounts' bindings, which the management API's token check reads, kept by the same rule. */
  readonly serviceAccounts?: CredentialCache<ServiceAccountBinding>;
}
