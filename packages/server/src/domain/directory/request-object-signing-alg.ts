import { CLIENT_JWS_ALGORITHMS } from '../client-jws-algorithms.js';
import { fail } from '../errors.js';
import type { Client } from '../types.js';

/** What a client may register as `request_object_signing_alg`: a signing algorithm, or `none`. */
export const REQUEST_OBJECT_SIGNING_ALGS: readonly string[] = [...CLIENT_JWS_ALGORITHMS, 'none'];

/**
 * A client's `request_object_signing_alg` (OIDC Dynamic Client Registration §2): the one algorithm
 * all its request objects must use. A signing algorithm needs keys to check it with, so only a
 * confidential client (the kind that registers keys) names one; `none`, unsigned objects, suits any
 * client. Any problem is `invalid_body`.
 */
export function checkRequestObjectSigningAlg(kind: Client['kind'], alg: string): string {
  if (!REQUEST_OBJECT_SIGNING_ALGS.includes(alg))
    fail(
      'client.request_object_alg.unsupported',
      `request_object_signing_alg: must be one of ${REQUEST_OBJECT_SIGNING_ALGS.join(', ')}`,
    );
  if (alg !== 'none' && kind !== 'confidential')
    fail(
      'client.request_object_alg.public_client',
      'request_object_signing_alg: a public client has no keys to sign with; only none',
    );
  return alg;
}
