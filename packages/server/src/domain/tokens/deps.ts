import type { NonceMinter } from '../../crypto/dpop-proof.js';
import type { ResourcesDeps } from '../resources/deps.js';

/**
 * What domain/tokens/ needs from the runtime: what the features below it need, and the DPoP nonces
 * this service hands out (RFC 9449 §8, dpop.ts). Its functions take this (or less); a caller
 * holding more passes it as is.
 */
export interface TokensDeps extends ResourcesDeps {
  /** Makes and checks DPoP server nonces, the same on every node (derived from TESSERA_SECRET). */
  readonly dpopNonces: NonceMinter;
}
