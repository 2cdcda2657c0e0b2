import { pkceS256Matches } from '../../../crypto/pkce.js';
import { type ErrorSituation, fail } from '../../errors.js';
import type { Client } from '../../types.js';

/**
 * PKCE (RFC 7636), every rule of it in one place: who must use it, which method, what a challenge
 * looks like (for /oauth/authorize and an owner's impersonation link alike), and how the token
 * endpoint checks the verifier.
 */

/** The one method taken: `plain` is refused (RFC 9700 §2.1.1); discovery lists this. */
export const PKCE_METHODS = ['S256'] as const;

/** RFC 7636 §4.2: 43-128 characters of the unreserved set (S256 always yields 43). */
export const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Public clients must send a challenge, wherever a code is issued for them (docs/sign-in.md). */
export const pkceRequired = (client: Client): boolean => client.kind === 'public';

/**
 * /oauth/authorize's `code_challenge` and `code_challenge_method`: the challenge to keep with the
 * request, null for none (a confidential client may send none), else `invalid_request`.
 */
export function checkPkce(
  client: Client,
  challenge: string | undefined,
  method: string | undefined,
): string | null {
  if (challenge === undefined) {
    if (method !== undefined)
      fail('authorize.pkce.method_without_challenge', 'code_challenge_method given without code_challenge');
    if (pkceRequired(client)) fail('authorize.pkce.required', 'PKCE is required: send code_challenge (S256)');
    return null;
  }
  // An absent method means `plain` (RFC 7636 §4.3), which is refused.
  if (!(PKCE_METHODS as readonly (string | undefined)[]).includes(method))
    fail('authorize.pkce.method_unsupported', 'code_challenge_method must be S256 (plain is not supported)');
  if (!CODE_CHALLENGE.test(challenge))
    fail('authorize.pkce.challenge_malformed', 'code_challenge is malformed');
  return challenge;
}

/** Why a code may not be exchanged: its situation and the words `error_description` carries. */
export type CodeProblem = { situation: ErrorSituation; error: string };

/**
 * At the token endpoint: why `verifier` does not settle the code's `challenge`, or null when it
 * does. A code without a challenge takes no verifier: one sent anyway is a downgrade attempt (RFC
 * 9700 §4.8.2).
 */
export function verifierProblem(challenge: string | null, verifier: string | undefined): CodeProblem | null {
  if (challenge === null)
    return verifier === undefined
      ? null
      : {
          situation: 'token.code.verifier_unexpected',
          error: 'code_verifier sent, but no code_challenge was',
        };
  if (verifier === undefined)
    return { situation: 'token.code.verifier_missing', error: 'code_verifier is required' };
  return pkceS256Matches(verifier, challenge)
    ? null
    : { situation: 'token.code.verifier_mismatch', error: 'code_verifier does not match' };
}
