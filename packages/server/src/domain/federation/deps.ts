import type { CredentialCache } from '../credential-cache.js';
import type { TeamsDeps } from '../teams/deps.js';
import type { Connection } from '../types.js';
import type { OidcUpstreams } from './oidc-upstreams.js';

/**
 * What domain/federation/ needs from the runtime: what the features below it need and its own
 * services. Its functions take this (or less); a caller holding more passes it as is.
 */
export interface FederationDeps extends TeamsDeps {
  /**
   * The OpenID providers of connections, reached through the upstream port and kept per process
   * (oidc-upstreams.ts; `tessera serve` only, which serves the sign-in pages).
   */
  readonly upstreams?: OidcUpstreams;
  /**
   * Each org's connections, which the login page reads (its buttons, email-domain discovery), kept
   * until a change is committed (domain/credential-cache.ts; migration 060 announces them).
   */
  readonly connections?: CredentialCache<readonly Connection[]>;
}
