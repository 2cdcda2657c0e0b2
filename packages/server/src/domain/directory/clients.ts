import { newSecret, sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { insertClientPromotions } from '../../storage/repos/client-promotions.js';
import {
  deleteClientRow,
  findClient,
  findClientWithSecret,
  insertClient,
  pageClients,
  replaceClientSecret,
  updateClientRow,
} from '../../storage/repos/clients.js';
import { pageLogoutDeliveries } from '../../storage/repos/logout-deliveries.js';
import { deleteClientSessionClients } from '../../storage/repos/session-clients.js';
import { recordAudit } from '../audit/audit.js';
import { clientSnapshot } from '../audit/snapshots.js';
import { auditTrail } from '../audit/trail.js';
import { applyClientFlags, type ClientFlagInput, clientFlagsOf } from '../client-flags.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, windowOf } from '../paging.js';
import { endClientSessions } from '../sessions/sessions.js';
import {
  type Actor,
  type Client,
  DEVICE_CODE_GRANT,
  type GrantType,
  type LogoutDelivery,
  type Org,
  type PublicKeySet,
} from '../types.js';
import { checkAllowedOrigins } from './allowed-origins.js';
import { checkClientJwks, checkClientJwksUri, checkOneKeySource } from './client-jwks.js';
import type { DirectoryDeps } from './deps.js';
import { checkLogoutEndpoint } from './logout-uris.js';
import { checkRequestObjectSigningAlg } from './request-object-signing-alg.js';
import { nextIssueTime, rotateSecret } from './secret-rotation.js';
import { checkName, checkRedirectUri } from './validate.js';

export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  // RFC 8628: listed by owners for a CLI or a device without a browser; never a default.
  DEVICE_CODE_GRANT,
];

/**
 * The logout fields of a creation or an update: OIDC Back-/Front-Channel Logout 1.0's URI (null: none,
 * or removed with its flag) and its session flag (`sid`; `iss` and `sid` for the framed page).
 */
export interface LogoutFields {
  backchannelLogoutUri?: string | null;
  backchannelLogoutSessionRequired?: boolean;
  frontchannelLogoutUri?: string | null;
  frontchannelLogoutSessionRequired?: boolean;
}

export interface NewClient extends LogoutFields, ClientFlagInput {
  name: string;
  kind: 'public' | 'confidential';
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** Defaults: public → code + refresh; confidential → client_credentials (+ code and refresh with redirect URIs). */
  grantTypes?: string[];
  firstParty?: boolean;
  /** Browser origins for CORS; absent: the redirect URIs' origins, following them as they change. */
  allowedOrigins?: string[];
  /** Confidential clients only: public clients of the same org whose user tokens it may exchange (RFC 8693). */
  promoteFrom?: string[];
  /** Confidential clients only: public keys for private_key_jwt (RFC 7523). */
  jwks?: PublicKeySet;
  /** Or the https URL where it publishes them (never both). */
  jwksUri?: string;
  /** The one algorithm its request objects must use (`none` included); absent: any signed one. */
  requestObjectSigningAlg?: string;
  /** `RS256`: its userinfo answers are JWTs signed with the org's key (OIDC Core §5.3.2). */
  userinfoSignedResponseAlg?: 'RS256';
}

/**
 * The client's logout endpoints after `input` (over `before`'s, on an update): a URI given replaces
 * the one registered (null removes it, with its flag); a flag alone changes the registered URI's. A
 * flag with no URI to go with it is refused, not dropped.
 */
function withLogoutEndpoints(deps: DirectoryDeps, client: Client, input: LogoutFields): void {
  const channels = [
    ['backchannel', 'backchannelLogout', input.backchannelLogoutUri, input.backchannelLogoutSessionRequired],
    [
      'frontchannel',
      'frontchannelLogout',
      input.frontchannelLogoutUri,
      input.frontchannelLogoutSessionRequired,
    ],
  ] as const;
  for (const [channel, key, uri, required] of channels) {
    const current = client[key];
    const nextUri = uri === undefined ? (current?.uri ?? null) : uri;
    if (nextUri === null) {
      if (required !== undefined)
        fail(
          'client.logout_session_required.without_uri',
          `${channel}_logout_session_required needs a ${channel}_logout_uri`,
        );
      delete client[key];
      continue;
    }
    client[key] = checkLogoutEndpoint(
      deps.config,
      channel,
      nextUri,
      required ?? (uri === undefined ? current?.sessionRequired : false),
    );
  }
}

/** The grant types a client gets when none are named. */
export function defaultGrantTypes(kind: Client['kind'], hasRedirectUris: boolean): GrantType[] {
  if (kind === 'public') return ['authorization_code', 'refresh_token'];
  return hasRedirectUris
    ? ['client_credentials', 'authorization_code', 'refresh_token']
    : ['client_credentials'];
}

/** What is wrong with a client's grant types given its kind and redirect URIs; null when nothing. */
export function grantTypesProblem(
  kind: Client['kind'],
  grants: readonly string[],
  hasRedirectUris: boolean,
): string | null {
  const unknown = grants.find((g) => !GRANT_TYPES.includes(g as GrantType));
  if (unknown !== undefined) return `unknown grant type "${unknown}"`;
  if (kind === 'public' && grants.includes('client_credentials')) {
    return 'a public client cannot use client_credentials';
  }
  if (grants.includes('authorization_code') && !hasRedirectUris) {
    return 'authorization_code needs at least one redirect URI';
  }
  return null;
}

function checkGrants(input: NewClient): GrantType[] {
  const hasRedirectUris = input.redirectUris.length > 0;
  const grants = input.grantTypes?.length
    ? [...new Set(input.grantTypes)]
    : defaultGrantTypes(input.kind, hasRedirectUris);
  const problem = grantTypesProblem(input.kind, grants, hasRedirectUris);
  if (problem !== null) fail('client.grant_types.invalid', problem);
  return grants as GrantType[];
}

const checkRedirectUris = (uris: readonly string[]) => [...new Set(uris.map(checkRedirectUri))];

/** The promotable clients must be public clients of the org, named to a confidential client. */
async function checkPromoteFrom(db: Handle, org: Org, input: NewClient): Promise<string[]> {
  const sources = [...new Set(input.promoteFrom ?? [])];
  if (sources.length > 0 && input.kind !== 'confidential') {
    fail(
      'client.promote_from.public_client',
      'only a confidential client can promote tokens of other clients',
    );
  }
  for (const id of sources) {
    const found = await findClientWithSecret(db, org.id, id);
    if (!found) fail('client.promote_from.unknown', `promote-from: no client "${id}" in this organization`);
    if (found?.client.kind !== 'public')
      fail('client.promote_from.not_public', `promote-from: "${id}" is not a public client`);
  }
  return sources;
}

/**
 * Creates a client; a confidential one gets a 256-bit secret, shown once and stored as its SHA-256.
 * `tessera client create` and POST /organizations/{org}/clients both create clients here.
 */
export async function createClient(
  deps: DirectoryDeps,
  org: Org,
  input: NewClient,
  actor: Actor,
): Promise<{ client: Client; secret: string | null; promoteFrom: string[] }> {
  const name = checkName('name', input.name);
  const redirectUris = checkRedirectUris(input.redirectUris);
  const postLogoutRedirectUris = checkRedirectUris(input.postLogoutRedirectUris ?? []);
  const grantTypes = checkGrants({ ...input, redirectUris });
  const allowedOrigins = input.allowedOrigins ? checkAllowedOrigins(input.allowedOrigins) : null;
  const promoteFrom = await checkPromoteFrom(deps.store, org, input);
  const now = clock.now();
  const secret = input.kind === 'confidential' ? newSecret('tcs_') : null;
  const client: Client = {
    id: newResourceId('client'),
    orgId: org.id,
    name,
    kind: input.kind,
    redirectUris,
    postLogoutRedirectUris,
    grantTypes,
    firstParty: input.firstParty ?? true,
    secretIssuedAt: secret === null ? null : now,
    ...(input.jwks === undefined ? {} : { jwks: checkClientJwks(input.kind, input.jwks) }),
    ...(input.jwksUri === undefined ? {} : { jwksUri: checkClientJwksUri(input.kind, input.jwksUri) }),
    ...(input.requestObjectSigningAlg === undefined
      ? {}
      : { requestObjectSigningAlg: checkRequestObjectSigningAlg(input.kind, input.requestObjectSigningAlg) }),
    ...(input.userinfoSignedResponseAlg === undefined
      ? {}
      : { userinfoSignedResponseAlg: input.userinfoSignedResponseAlg }),
    ...clientFlagsOf(input),
    allowedOrigins,
    createdAt: now,
    updatedAt: now,
  };
  withLogoutEndpoints(deps, client, input);
  checkOneKeySource(client);
  await deps.unitOfWork.run(async (tx) => {
    await insertClient(tx, client, secret === null ? null : sha256(secret));
    await insertClientPromotions(tx, client.id, promoteFrom, now);
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'client',
      verb: 'created',
      actor,
      at: now,
      data: promoteFrom.length > 0 ? { ...clientSnapshot(client), promoteFrom } : clientSnapshot(client),
    });
  });
  return { client, secret, promoteFrom };
}

/** One page of the org's clients, oldest first (never a secret). */
export async function listClients(
  deps: DirectoryDeps,
  org: Org,
  q: PageAsked,
): Promise<{ entries: Client[]; total: number }> {
  return pageClients(deps.store, org.id, windowOf(q));
}

const NO_SUCH_CLIENT = 'no such client';

/** `client.created|updated|deleted`, also of dynamically registered clients and the console's own. */
export const clientAudit = auditTrail('client', clientSnapshot);

/** The org's client `id`; 404 for an unknown id, another org's, or one that is not a `cli_` id. */
export async function orgClient(db: Handle, org: Org, id: string): Promise<Client> {
  if (!isIdOf('client', id)) return fail('client.not_found', NO_SUCH_CLIENT);
  return (await findClient(db, org.id, id)) ?? fail('client.not_found', NO_SUCH_CLIENT);
}

/** One of the org's clients (never its secret); 404 `not_found` for any other id. */
export const getClient = (deps: DirectoryDeps, org: Org, id: string): Promise<Client> =>
  orgClient(deps.store, org, id);

/**
 * One page of a client's back-channel logout deliveries, newest first (never a token: tokens are
 * signed when sent and not stored); 404 `not_found` for any id not the org's client.
 */
export async function listLogoutDeliveries(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  q: PageAsked,
): Promise<{ entries: LogoutDelivery[]; total: number }> {
  const client = await orgClient(deps.store, org, id);
  return pageLogoutDeliveries(deps.store, org.id, client.id, windowOf(q));
}

/** What an update may change; an absent field keeps its value. */
export interface ClientChanges extends LogoutFields, ClientFlagInput {
  name?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  grantTypes?: string[];
  /** New public keys for private_key_jwt; null removes them. */
  jwks?: PublicKeySet | null;
  /** A new URL of its public keys; null removes it. */
  jwksUri?: string | null;
  /** The one algorithm its request objects must use; null: any signed one again. */
  requestObjectSigningAlg?: string | null;
  /** An explicit list of browser origins; null returns to the default (the redirect URIs' origins). */
  allowedOrigins?: string[] | null;
  /** `RS256`: userinfo answers it a signed JWT; null: JSON again. */
  userinfoSignedResponseAlg?: 'RS256' | null;
}

/**
 * Updates a client and records `client.updated` with `previous` and `changes`; nothing is written
 * when nothing differs. The grant types are checked against the redirect URIs the client ends up
 * with; a refusal names the field given (`grant_types`, else `redirect_uris`).
 */
export async function updateClient(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  changes: ClientChanges,
  actor: Actor,
): Promise<Client> {
  const name = changes.name === undefined ? undefined : checkName('client_name', changes.name);
  const redirectUris = changes.redirectUris && checkRedirectUris(changes.redirectUris);
  const postLogout = changes.postLogoutRedirectUris && checkRedirectUris(changes.postLogoutRedirectUris);
  const origins = changes.allowedOrigins && checkAllowedOrigins(changes.allowedOrigins);
  const updated = await deps.unitOfWork.run(async (tx) => {
    const before = await orgClient(tx, org, id);
    const after: Client = {
      ...before,
      name: name ?? before.name,
      redirectUris: redirectUris ?? before.redirectUris,
      postLogoutRedirectUris: postLogout ?? before.postLogoutRedirectUris,
      grantTypes: (changes.grantTypes ? [...new Set(changes.grantTypes)] : before.grantTypes) as GrantType[],
      allowedOrigins: changes.allowedOrigins === undefined ? before.allowedOrigins : (origins ?? null),
    };
    if (changes.jwks === null) delete after.jwks;
    else if (changes.jwks !== undefined) after.jwks = checkClientJwks(before.kind, changes.jwks);
    if (changes.jwksUri === null) delete after.jwksUri;
    else if (changes.jwksUri !== undefined) after.jwksUri = checkClientJwksUri(before.kind, changes.jwksUri);
    if (changes.requestObjectSigningAlg === null) delete after.requestObjectSigningAlg;
    else if (changes.requestObjectSigningAlg !== undefined)
      after.requestObjectSigningAlg = checkRequestObjectSigningAlg(
        before.kind,
        changes.requestObjectSigningAlg,
      );
    if (changes.userinfoSignedResponseAlg === null) delete after.userinfoSignedResponseAlg;
    else if (changes.userinfoSignedResponseAlg !== undefined)
      after.userinfoSignedResponseAlg = changes.userinfoSignedResponseAlg;
    withLogoutEndpoints(deps, after, changes);
    applyClientFlags(after, changes);
    checkOneKeySource(after);
    const problem = grantTypesProblem(after.kind, after.grantTypes, after.redirectUris.length > 0);
    if (problem !== null)
      fail(
        'client.update.grant_types_invalid',
        `${changes.grantTypes ? 'grant_types' : 'redirect_uris'}: ${problem}`,
      );
    if (clientAudit.unchanged(before, after)) return before;
    const now = clock.now();
    after.updatedAt = now;
    await updateClientRow(tx, after);
    await clientAudit.updated(tx, { orgId: org.id, actor, at: now }, before, after);
    return after;
  });
  deps.credentials?.changed();
  return updated;
}

/**
 * Gives a confidential client a new secret, shown once: the old one stops working when this
 * commits, and this process's cache of client credentials is emptied at once (other nodes empty
 * theirs on the change notification). Audited as `client.updated`, whose change is the secret's
 * issue time. A public client has no secret: 409 `conflict`.
 */
export async function rotateClientSecret(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<string> {
  return rotateSecret(deps, async (tx, hash) => {
    const before = await orgClient(tx, org, id);
    if (before.kind !== 'confidential') fail('client.secret.public_client', 'a public client has no secret');
    const now = nextIssueTime(before.secretIssuedAt);
    const after: Client = { ...before, secretIssuedAt: now, updatedAt: now };
    await replaceClientSecret(tx, after, hash);
    await clientAudit.updated(tx, { orgId: org.id, actor, at: now }, before, after);
  });
}

/**
 * Deletes a client: its live sessions end first (each audited as `session.deleted`; their refresh
 * and access tokens stop working), then the client goes with everything that refers to it, and
 * `client.deleted` records its snapshot.
 */
export async function deleteClient(deps: DirectoryDeps, org: Org, id: string, actor: Actor): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    const client = await orgClient(tx, org, id);
    const now = clock.now();
    await endClientSessions(tx, client.id, actor, now);
    await deleteClientSessionClients(tx, org.id, client.id);
    await deleteClientRow(tx, org.id, client.id);
    await clientAudit.deleted(tx, { orgId: org.id, actor, at: now }, client);
  });
  deps.credentials?.changed();
}
