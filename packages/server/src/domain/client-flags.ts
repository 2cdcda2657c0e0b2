import type { Client } from './types.js';

/**
 * The client's yes/no settings that are stored 0/1 and held (and shown) only when true:
 * `require_pushed_authorization_requests` (RFC 9126), `dpop_bound_access_tokens` and
 * `dpop_nonce_required` (RFC 9449). One list, so each flag is read, set and shown the same way.
 */
export const CLIENT_FLAGS = ['requirePushedRequests', 'dpopBoundAccessTokens', 'dpopNonceRequired'] as const;
export type ClientFlag = (typeof CLIENT_FLAGS)[number];

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
