import { FEDERATED_SIGN_IN, type SignInMethod } from '../sign-in/browser-sessions.js';
import { type CompletedAuthentication, completeAuthentication } from '../sign-in/complete-authentication.js';
import { loadPendingSignIn } from '../sign-in/pending-sign-in.js';
import type { Org, User } from '../types.js';
import { linkAfterProof } from './account-link-proofs.js';
import type { Connection } from './connections.js';
import type { FederationDeps } from './deps.js';
import { federatedUser } from './federated-users.js';
import type { HeldAccountLink } from './pending-requests.js';
import type { UpstreamIdentity } from './upstream-identity.js';

/**
 * The end of an upstream sign-in (OIDC callback, SAML continue step, a mailed account link
 * followed): the user the upstream vouched for, through the one entry after any sign-in
 * (domain/sign-in/complete-authentication.ts), with the authorization request the sign-in was
 * started for.
 */

/** The request (or device authorization) a sign-in was started for, while pending (else none: the login page follows). */
const pendingOf = (deps: FederationDeps, org: Org, requestId: string | null) =>
  requestId === null ? null : loadPendingSignIn(deps, org, requestId);

/** How a connection signs people in: `amr`/`acr` of a federated sign-in, the connection in `user.login`. */
const federatedMethod = (c: Connection): SignInMethod => ({
  ...FEDERATED_SIGN_IN,
  audit: { connectionId: c.id, connectionType: c.type },
});

/**
 * Signs in the user an upstream answer names and goes on with its request; or, when an existing
 * account must be proved first (federated-users.ts), `prove` names it and nothing is signed in.
 */
export async function completeFederatedSignIn(
  deps: FederationDeps,
  org: Org,
  c: Connection,
  answer: { identity: UpstreamIdentity; requestId: string | null },
): Promise<CompletedAuthentication | { prove: User }> {
  const found = await federatedUser(deps, org, c, answer.identity);
  if ('prove' in found) return found;
  const proven = { user: found.user, method: federatedMethod(c) };
  return completeAuthentication(deps, org, proven, await pendingOf(deps, org, answer.requestId));
}

/** Links the account a followed mail link proved, signs its user in and goes on with the request. */
export async function completeLinkedSignIn(
  deps: FederationDeps,
  org: Org,
  c: Connection,
  held: HeldAccountLink,
): Promise<CompletedAuthentication> {
  const user = await linkAfterProof(deps, org, c, held);
  const proven = { user, method: federatedMethod(c) };
  return completeAuthentication(deps, org, proven, await pendingOf(deps, org, held.requestId));
}
