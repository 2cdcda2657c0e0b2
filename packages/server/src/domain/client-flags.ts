import type { Client } from './types.js';

/**
 * The client's yes/no settings that are stored 0/1 and held (and shown) only when true:
 * `require_pushed_authorization_requests` (RFC 9126), `dpop_bound_access_tokens` and
 * `dpop_nonce_required` (RFC 9449). One list, so each flag is read, set and shown the same way.
 */
export const CLIENT_FLAGS = ['requirePushedRequests', 'dpopBoundAccessTokens', 'dpopNonceRequired'] as const;
export type ClientFlag = (typeof CLIENT_FLAGS)[number];

/** The flags as a creation or update gives them: true sets, false clears (absent: default, or unchanged). */
export interface ClientFlagInput {
  /** It must push its authorization requests (RFC 9126); default false. */
  requirePushedRequests?: boolean;
  /** RFC 9449 §5.2: every token request must carry a DPoP proof. */
  dpopBoundAccessTokens?: boolean;
  /** Its DPoP proofs must carry a nonce this service hands out (RFC 9449 §8). */
  dpopNonceRequired?: boolean;
}

/** The flags of `from` that are true, as `true` (absent otherwise), in CLIENT_FLAGS order. */
export function clientFlagsOf(
  from: { readonly [K in ClientFlag]?: boolean | undefined },
): Pick<Client, ClientFlag> {
  const flags: Pick<Client, ClientFlag> = {};
  for (const flag of CLIENT_FLAGS) if (from[flag] === true) flags[flag] = true;
  return flags;
}

/** Applies an update's flags to `client`: true sets, false removes, absent keeps. */
export function applyClientFlags(
  client: Client,
  changes: { readonly [K in ClientFlag]?: boolean | undefined },
): void {
  for (const flag of CLIENT_FLAGS) {
    if (changes[flag] === false) delete client[flag];
    else if (changes[flag] === true) client[flag] = true;
  }
}
