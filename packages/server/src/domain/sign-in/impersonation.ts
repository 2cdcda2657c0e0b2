import { newId, newSecret, sha256 } from '../../crypto/random.js';
import { insertAuthorizationRequest } from '../../storage/repos/authorization-requests.js';
import { findClientWithSecret } from '../../storage/repos/clients.js';
import { findMembership } from '../../storage/repos/memberships.js';
import { impersonations } from '../../storage/repos/one-time-keys.js';
import { findUserById } from '../../storage/repos/users.js';
import { recordAudit } from '../audit/audit.js';
import { clock } from '../clock.js';
import { findRedirectUri } from '../directory/redirect-uris.js';
import { failApi } from '../errors.js';
import { isIdOf } from '../identifiers.js';
import { issuerOf } from '../issuers.js';
import {
  ACR_IMPERSONATION,
  IMPERSONATION_LINK_TTL_MS,
  IMPERSONATION_SESSION_TTL_MS,
} from '../tokens-policy.js';
import type { Actor, Org, User } from '../types.js';
import { loadAuthorizationRequest, type PendingAuthorization } from './authorization-requests.js';
import { usesCodeFlow } from './authorize/client.js';
import { pkceRequired } from './authorize/pkce.js';
import type { SignInMethod } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';

/** What an owner asks for (the management body, already shape-checked). */
export interface ImpersonationRequest {
  reason: string;
  clientId: string;
  redirectUri: string;
  state?: string | undefined;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: 'S256' | undefined;
}

export interface StartedImpersonation {
  id: string;
  userId: string;
  clientId: string;
  /** The one-time link on the org's issuer; it carries the only copy of the key. */
  url: string;
  expiresAt: number;
}

/** The path of the hosted page that opens a link (a sign-in page, so it sits under /login). */
export const IMPERSONATION_PATH = '/login/impersonation';

/** The audit snapshot of a link: never its key. */
const snapshot = (
  id: string,
  userId: string,
  request: ImpersonationRequest,
  at: number,
  expiresAt: number,
) => ({
  id,
  userId,
  clientId: request.clientId,
  redirectUri: request.redirectUri,
  reason: request.reason,
  createdAt: new Date(at).toISOString(),
  expiresAt: new Date(expiresAt).toISOString(),
});

/** The user of `org` named by the path, else 404 (as for a webhook id of another org). */
async function userOfOrg(deps: SignInDeps, org: Org, userId: string): Promise<User> {
  const user = isIdOf('user', userId) ? await findUserById(deps.store, userId) : null;
  if (!user || user.orgId !== org.id)
    return failApi('impersonation.user.not_found', 'no such user in this organization');
  return user;
}

/** The client and redirect URI must be ones the client could have sent to /oauth/authorize. */
async function checkTarget(deps: SignInDeps, org: Org, request: ImpersonationRequest) {
  const found = await findClientWithSecret(deps.store, org.id, request.clientId);
  if (!found)
    return failApi('impersonation.client.not_found', 'client_id: no such client in this organization');
  const { client } = found;
  if (!usesCodeFlow(client)) {
    return failApi(
      'impersonation.client.code_flow_refused',
      'client_id: this client does not use the authorization code flow',
    );
  }
  if (findRedirectUri(client, request.redirectUri) === null) {
    return failApi('impersonation.redirect_uri.unregistered', 'redirect_uri: not registered for this client');
  }
  // PKCE is required of public clients everywhere (authorize/pkce.ts), impersonation included.
  if (pkceRequired(client) && request.codeChallenge === undefined) {
    return failApi(
      'impersonation.pkce.required',
      'code_challenge: required for a public client (PKCE, S256)',
    );
  }
  return client;
}

/**
 * An owner starts acting as one user of their org: a one-time link, valid for two minutes, that
 * completes an authorization request of `clientId` for that user. The link, its authorization
 * request and the `impersonation.created` entry (owner as actor, with the reason) are written in
 * one transaction; only the key's SHA-256 is stored.
 */
export async function startImpersonation(
  deps: SignInDeps,
  org: Org,
  actorId: string,
  userId: string,
  request: ImpersonationRequest,
): Promise<StartedImpersonation> {
  const actor: Actor = { kind: 'user', id: actorId };
  const user = await userOfOrg(deps, org, userId);
  // A disabled user's sign-in is refused; acting as them would walk around that.
  if (user.disabled)
    return failApi('impersonation.user.disabled', 'the user is disabled: enable them before acting as them');
  const client = await checkTarget(deps, org, request);
  const now = clock.now();
  const expiresAt = now + IMPERSONATION_LINK_TTL_MS;
  const key = newSecret('tim_');
  const id = newId('imp');
  const requestId = newId('arq');
  await deps.unitOfWork.run(async (tx) => {
    await insertAuthorizationRequest(tx, {
      id: requestId,
      orgId: org.id,
      clientId: client.id,
      redirectUri: request.redirectUri,
      redirectUriGiven: true,
      state: request.state ?? null,
      codeChallenge: request.codeChallenge ?? null,
      scope: '',
      resources: [],
      grant: null,
      nonce: null,
      prompt: [],
      maxAge: null,
      loginHint: null,
      uiLocales: [],
      responseMode: 'query',
      claims: null,
      dpopJkt: null,
      createdAt: now,
      expiresAt,
      completedAt: null,
    });
    await impersonations.insert(tx, {
      keyHash: sha256(key),
      id,
      orgId: org.id,
      userId: user.id,
      actorId,
      requestId,
      reason: request.reason,
      createdAt: now,
      expiresAt,
      usedAt: null,
    });
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'impersonation',
      verb: 'created',
      actor,
      at: now,
      data: snapshot(id, user.id, request, now, expiresAt),
    });
  });
  await impersonations.purge(deps.store, now);
  const url = new URL(IMPERSONATION_PATH.slice(1), issuerOf(deps.config, org));
  url.searchParams.set('key', key);
  return { id, userId: user.id, clientId: client.id, url: url.href, expiresAt };
}

export interface OpenedImpersonation {
  user: User;
  pending: PendingAuthorization;
  /** How the browser session starts: `act`, the impersonation `acr`, one hour at most. */
  method: SignInMethod;
}

/**
 * Redeems a link: consumed atomically (a second opening gets null, like an expired one), and only
 * while its owner still owns the org and its user still exists and is not disabled. The session it starts ends one
 * hour after this moment, and nothing extends it.
 */
export async function openImpersonation(
  deps: SignInDeps,
  org: Org,
  key: string,
): Promise<OpenedImpersonation | null> {
  const now = clock.now();
  const link = await impersonations.consume(deps.store, org.id, sha256(key), now);
  if (!link) return null;
  const membership = await findMembership(deps.store, org.id, link.actorId);
  if (membership?.role !== 'owner') return null;
  const user = await findUserById(deps.store, link.userId);
  const pending = await loadAuthorizationRequest(deps, org, link.requestId);
  // Disabled since the link was made: closed like an expired link.
  if (!user || user.orgId !== org.id || user.disabled || !pending) return null;
  return {
    user,
    pending,
    method: {
      // The user did not authenticate: no method of theirs is claimed (see docs/delegation.md).
      amr: [],
      acr: ACR_IMPERSONATION,
      impersonation: {
        id: link.id,
        actorId: link.actorId,
        reason: link.reason,
        clientId: pending.client.id,
        // Counted from the opening (the link's `used_at`), the same instant on every row.
        expiresAt: now + IMPERSONATION_SESSION_TTL_MS,
      },
    },
  };
}
