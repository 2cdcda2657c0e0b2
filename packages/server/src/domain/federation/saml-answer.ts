import { loadPendingSignIn, type PendingSignIn } from '../sign-in/pending-sign-in.js';
import type { Org } from '../types.js';
import type { Connection } from './connections.js';
import type { FederationDeps } from './deps.js';
import { holdFederatedAnswer } from './pending-requests.js';
import { finishSamlSignIn } from './saml-upstream.js';

/**
 * A SAML response posted to a connection's ACS (cross-site: no cookie of the browser comes with
 * it): verified (saml-upstream.ts), then held for the browser that started the sign-in, which
 * takes it with its cookies (takeFederatedAnswer) and goes on through completeFederatedSignIn.
 * Returns the held answer's id and the authorization request the sign-in was started for (null
 * for none, or one no longer pending).
 */
export async function holdSamlAnswer(
  deps: FederationDeps,
  org: Org,
  c: Extract<Connection, { type: 'saml' }>,
  samlResponse: string,
): Promise<{ answerId: string; pending: PendingSignIn | null }> {
  const answer = await finishSamlSignIn(deps, org, c, samlResponse);
  const answerId = await holdFederatedAnswer(deps, c.id, answer);
  const pending = answer.requestId === null ? null : await loadPendingSignIn(deps, org, answer.requestId);
  return { answerId, pending };
}
