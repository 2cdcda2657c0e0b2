import { newId } from '../../crypto/random.js';
import {
  completeAuthorizationRequest,
  findPendingAuthorizationRequest,
  insertAuthorizationRequest,
  purgeAuthorizationRequests,
} from '../../storage/repos/authorization-requests.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import { AUTHORIZATION_REQUEST_TTL_MS } from '../tokens-policy.js';
import type { AuthorizationRequest, Client, Org } from '../types.js';
import { findSignInClient } from './authorize/client.js';
import type { CheckedParams } from './authorize/parameters.js';
import { keptTarget, type RedirectTarget } from './authorize/redirect-target.js';
import type { SignInDeps } from './deps.js';

/**
 * Authorization requests kept while the person signs in and consents: saved once checked
 * (authorize/), loaded by the pages, completed when a code is issued or closed when declined.
 */

/** Keeps the validated request while the person signs in and consents; returns its id. */
export async function saveAuthorizationRequest(
  deps: SignInDeps,
  org: Org,
  target: RedirectTarget,
  state: string | undefined,
  checked: CheckedParams,
): Promise<AuthorizationRequest> {
  const now = clock.now();
  const request: AuthorizationRequest = {
    id: newId('arq'),
    orgId: org.id,
    ...keptTarget(target),
    state: state ?? null,
    codeChallenge: checked.codeChallenge,
    scope: checked.scope,
    resources: checked.resources,
    grant: null,
    nonce: checked.nonce,
    prompt: checked.prompt,
    maxAge: checked.maxAge,
    loginHint: checked.loginHint,
    uiLocales: checked.uiLocales,
    responseMode: checked.responseMode,
    claims: checked.claims,
    dpopJkt: checked.dpopJkt,
    createdAt: now,
    expiresAt: now + AUTHORIZATION_REQUEST_TTL_MS,
    completedAt: null,
  };
  await purgeAtMostEveryMinute(deps.store, 'authorization_requests', now, (db) =>
    purgeAuthorizationRequests(db, now),
  );
  await insertAuthorizationRequest(deps.store, request);
  return request;
}

export interface PendingAuthorization {
  request: AuthorizationRequest;
  client: Client;
}

/** A pending request of this org with its client, or null when unknown, expired or completed. */
export async function loadAuthorizationRequest(
  deps: SignInDeps,
  org: Org,
  id: string,
): Promise<PendingAuthorization | null> {
  const request = await findPendingAuthorizationRequest(deps.store, org.id, id, clock.now());
  if (!request) return null;
  // A metadata document that can no longer be read ends the request like a deleted client does.
  const client = await findSignInClient(deps, org, request.clientId);
  return client ? { request, client } : null;
}

/** Closes a request the person declined, so it cannot be completed afterwards. */
export async function closeAuthorizationRequest(
  deps: SignInDeps,
  pending: PendingAuthorization,
): Promise<void> {
  if (!(await completeAuthorizationRequest(deps.store, pending.request.id, clock.now()))) {
    fail('sign_in.request.completed', 'this sign-in was already completed');
  }
}
