import { newId, newSecret, randomCode, sha256 } from '../../crypto/random.js';
import {
  decideDeviceAuthorization,
  findByDeviceCode,
  findPendingByUserCode,
  findPendingDeviceAuthorization,
  insertDeviceAuthorization,
  purgeDeviceAuthorizations,
  recordDevicePoll,
  redeemDeviceAuthorization,
  userCodeInUse,
} from '../../storage/repos/device-authorizations.js';
import { settleAttempts } from '../../storage/repos/login-attempts.js';
import { clock } from '../clock.js';
import { ownScopes, requestedScope } from '../directory/scopes.js';
import { type ErrorSituation, fail } from '../errors.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import { requestedResources } from '../resources/requested-resources.js';
import { grantForUser, storedGrant } from '../resources/resource-grants.js';
import { resourceScopesAsked } from '../resources/resource-scope-requests.js';
import { sessionAudience } from '../resources/resource-tokens.js';
import { liveSession, openSession, revokeSession } from '../sessions/sessions.js';
import { requireGrant } from '../tokens/client-grants.js';
import { grantedTokens } from '../tokens/id-tokens.js';
import { addRefreshToken, type TokenSet } from '../tokens/user-tokens.js';
import { DEVICE_CODE_TTL_MS, DEVICE_POLL_INTERVAL_S, USED_CODE_RETENTION_MS } from '../tokens-policy.js';
import type { Client, DeviceAuthorization, Org } from '../types.js';
import type { Decision } from './authorization-steps.js';
import { findSignInClient } from './authorize/client.js';
import { authenticationOf, type BrowserSession } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';
import {
  type Limit,
  reserveLimits,
  type Throttled,
  type ThrottleVerdict,
  throttled,
} from './login-throttle.js';
import { type ConsentResource, shownResources } from './resource-consent.js';

/**
 * The device authorization grant (RFC 8628, DESIGN §20): a device without a browser asks
 * (`startDeviceAuthorization`), the person enters the user code on `{issuer}device`
 * (`findByUserCode`, throttled), signs in by any way there is (the device authorization is a
 * pending sign-in of its own kind: pending-sign-in.ts), and always sees a confirmation that a
 * device is asking (RFC 8628 §5.4) before `decideDevice` allows or denies it; the device polls the
 * token endpoint meanwhile (`redeemDeviceCode`).
 */

/** 20 consonants, no vowels (no words spelled) and none easily mistaken: BCDF-GHJK (DESIGN §20). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

/** The id prefix of a device authorization: what tells it from an authorization request (`arq_`). */
export const DEVICE_AUTHORIZATION_PREFIX = 'dva_';

/** How a user code is shown: `BCDF-GHJK`. */
export const formatUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * A user code as typed: case does not matter, and neither do dashes or spaces; null when what is
 * left is not 8 letters of the alphabet (so it is looked up nowhere).
 */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  return [...code].every((c) => USER_CODE_ALPHABET.includes(c)) ? code : null;
}

/**
 * User codes entered, per fixed window: `perIp` per address whatever the code (a guesser meets it
 * first; a right code gives its attempt back), `perCode` per code typed across addresses (one code
 * tried from many addresses).
 */
export const USER_CODE_LIMITS = Object.freeze({ perIp: 10, perCode: 5, windowMs: 15 * 60 * 1000 });

const ipKey = (ip: string) => `device-ip:${ip}`;
const codeKey = (code: string) => `device-code:${sha256(code)}`;

/** What a device authorization request answers (RFC 8628 §3.2), the URIs left to the transport. */
export interface StartedDeviceAuthorization {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

/**
 * RFC 8628 §3.1–3.2: a client that may use the device grant asks for `scope` (and `resource`
 * values, RFC 8707, as the code flow checks them); it gets a device code (stored as its SHA-256)
 * and a user code unused among the org's live ones.
 */
export async function startDeviceAuthorization(
  deps: SignInDeps,
  org: Org,
  client: Client,
  input: { scope: string | undefined; resources: readonly string[] },
): Promise<StartedDeviceAuthorization> {
  requireGrant(client, 'device_code');
  const resources = await requestedResources(deps, org, input.resources);
  const resourceScopes = await resourceScopesAsked(deps, org, input.scope, resources);
  const scope = requestedScope(org, client, input.scope, resourceScopes);
  const identifiers = org.isConsole ? [...new Set(input.resources)] : resources.map((r) => r.identifier);
  const now = clock.now();
  await purgeAtMostEveryMinute(deps.store, 'device_authorizations', now, (db) =>
    purgeDeviceAuthorizations(db, now - USED_CODE_RETENTION_MS),
  );
  let userCode = randomCode(USER_CODE_ALPHABET, USER_CODE_LENGTH);
  // 20^8 codes: a second draw is rare, a third rarer still.
  while (await userCodeInUse(deps.store, org.id, userCode, now)) {
    userCode = randomCode(USER_CODE_ALPHABET, USER_CODE_LENGTH);
  }
  const deviceCode = newSecret('tdc_');
  const device: DeviceAuthorization = {
    id: newId(DEVICE_AUTHORIZATION_PREFIX.slice(0, -1)),
    orgId: org.id,
    clientId: client.id,
    userCode,
    scope,
    resources: identifiers,
    status: 'pending',
    userId: null,
    sessionId: null,
    intervalS: DEVICE_POLL_INTERVAL_S,
    lastPolledAt: null,
    createdAt: now,
    expiresAt: now + DEVICE_CODE_TTL_MS,
    decidedAt: null,
    redeemedAt: null,
  };
  await insertDeviceAuthorization(deps.store, device, sha256(deviceCode));
  return {
    deviceCode,
    userCode: formatUserCode(userCode),
    expiresIn: DEVICE_CODE_TTL_MS / 1000,
    interval: DEVICE_POLL_INTERVAL_S,
  };
}

/** A pending device authorization with its client, as the pages carry it. */
export interface PendingDevice {
  device: DeviceAuthorization;
  client: Client;
}

/** A pending device authorization of this org with its client, or null when unknown, decided or expired. */
export async function loadDeviceAuthorization(
  deps: SignInDeps,
  org: Org,
  id: string,
): Promise<PendingDevice | null> {
  const device = await findPendingDeviceAuthorization(deps.store, org.id, id, clock.now());
  if (device === null) return null;
  const client = await findSignInClient(deps, org, device.clientId);
  return client ? { device, client } : null;
}

export type UserCodeOutcome =
  | { ok: true; pending: PendingDevice }
  | { ok: false; reason: 'invalid' }
  | Throttled;

/**
 * The pending device authorization a typed user code names, in this org only. Every attempt
 * counts against the address and the code typed (USER_CODE_LIMITS), before anything is looked up;
 * a right code gives the address its attempt back. A malformed code counts too.
 */
export async function findByUserCode(
  deps: SignInDeps,
  org: Org,
  typed: string,
  ip: string,
): Promise<UserCodeOutcome> {
  const code = normalizeUserCode(typed);
  const now = clock.now();
  const limits: Limit[] = [
    { key: ipKey(ip), max: USER_CODE_LIMITS.perIp, windowMs: USER_CODE_LIMITS.windowMs },
  ];
  if (code !== null) {
    limits.push({ key: codeKey(code), max: USER_CODE_LIMITS.perCode, windowMs: USER_CODE_LIMITS.windowMs });
  }
  const verdict: ThrottleVerdict = await reserveLimits(deps.store, org.id, now, limits);
  if (!verdict.allowed) return throttled(verdict);
  const device = code === null ? null : await findPendingByUserCode(deps.store, org.id, code, now);
  const client = device === null ? null : await findSignInClient(deps, org, device.clientId);
  if (device === null || client === null) return { ok: false, reason: 'invalid' };
  await settleAttempts(deps.store, org.id, { refund: [ipKey(ip)] });
  return { ok: true, pending: { device, client } };
}

/** What the confirmation page shows: the client, the code, what it asks for. */
export interface DeviceConfirmation {
  clientName: string;
  userCode: string;
  /** The identity scopes asked for (the page shows their words). */
  scopes: string[];
  resources: ConsentResource[];
  firstParty: boolean;
  /** The client's metadata document's host, when it is known by one. */
  documentHost: string | null;
}

/** The confirmation the signed-in person sees (RFC 8628 §5.4): always, for every client. */
export async function deviceConfirmation(
  deps: SignInDeps,
  org: Org,
  pending: PendingDevice,
  userId: string,
): Promise<DeviceConfirmation> {
  const { device, client } = pending;
  const granted = await grantForUser(deps.store, org, userId, device.resources, device.scope);
  return {
    clientName: client.name,
    userCode: formatUserCode(device.userCode),
    scopes: ownScopes(device.scope)
      .split(' ')
      .filter((s) => s !== ''),
    resources: shownResources(granted),
    firstParty: client.firstParty,
    documentHost: client.metadataDocument ? new URL(client.id).host : null,
  };
}

/**
 * Allow or Deny on the confirmation page, by the person signed in. Allow opens the OAuth session
 * (the resource grant decided from the person's roles now, as a code's is) that the device's next
 * poll receives; Deny ends the authorization (`access_denied` for the device). Either decides it
 * once: a second decision, or one after it expired, is refused.
 */
export async function decideDevice(
  deps: SignInDeps,
  org: Org,
  pending: PendingDevice,
  session: BrowserSession,
  decision: Decision,
): Promise<'approved' | 'denied'> {
  const { device } = pending;
  const now = clock.now();
  const auth = authenticationOf(session);
  await deps.unitOfWork.run(async (tx) => {
    if (decision === 'deny') {
      if (!(await decideDeviceAuthorization(tx, device.id, { status: 'denied', userId: auth.userId }, now)))
        fail('sign_in.device.decided', 'this device request was already answered or has expired');
      return;
    }
    const granted = await grantForUser(tx, org, auth.userId, device.resources, device.scope);
    const opened = await openSession(
      tx,
      org,
      {
        userId: auth.userId,
        clientId: device.clientId,
        amr: auth.amr,
        acr: auth.acr,
        scope: ownScopes(device.scope),
        resources: storedGrant(granted),
        actorId: auth.actorId ?? null,
        ...(auth.notAfter === undefined ? {} : { notAfter: auth.notAfter }),
        authTime: auth.authTime ?? now,
        browserSession: auth.browserSession ?? null,
        claims: null,
      },
      now,
    );
    const decided = { status: 'approved' as const, userId: auth.userId, sessionId: opened.id };
    // Thrown, the session just opened is rolled back with it.
    if (!(await decideDeviceAuthorization(tx, device.id, decided, now)))
      fail('sign_in.device.decided', 'this device request was already answered or has expired');
  });
  return decision === 'allow' ? 'approved' : 'denied';
}

/** A poll's refusal: its situation (which names the RFC 8628 §3.5 error) and words. */
type PollRefusal = { situation: ErrorSituation; description: string };

/**
 * RFC 8628 §3.4–3.5, the device_code grant: the device code of this org and this client (else
 * `invalid_grant`), then by its state — expired: `expired_token`; denied: `access_denied`;
 * pending: `slow_down` when polled sooner than the interval allows (which then grows by 5 s),
 * else `authorization_pending`; allowed: the tokens, once. A device code presented again after its
 * tokens were issued is `invalid_grant` and ends the session they belong to, as a reused
 * authorization code does. `resource` picks one of the granted resources, as in the code flow.
 */
export async function redeemDeviceCode(
  deps: SignInDeps,
  org: Org,
  client: Client,
  input: {
    deviceCode: string | undefined;
    resource: string | undefined;
    /** The key of the request's DPoP proof (RFC 9449 §5): the tokens are bound to it. */
    dpopJkt?: string | null;
  },
): Promise<TokenSet> {
  requireGrant(client, 'device_code');
  const dpopJkt = input.dpopJkt ?? null;
  const deviceCode = input.deviceCode ?? fail('token.device_code.missing', 'device_code is required');
  const now = clock.now();
  const signer = await deps.keyRing.signer(org);
  const actor = { kind: 'client', id: client.id } as const;
  // Refusals are returned, not thrown, so what they record (a poll, a revocation) is committed.
  const outcome = await deps.unitOfWork.run(async (tx) => {
    const device = await findByDeviceCode(tx, org.id, sha256(deviceCode));
    if (device === null || device.clientId !== client.id)
      return refuse('token.device_code.invalid', 'the device code is invalid');
    if (device.redeemedAt !== null) {
      if (device.sessionId !== null) await revokeSession(tx, device.sessionId, actor, now);
      return refuse('token.device_code.reused', 'the device code was already used; its session is revoked');
    }
    if (device.expiresAt <= now) return refuse('token.device_code.expired', 'the device code has expired');
    if (device.status === 'denied') return refuse('token.device_code.denied', 'the user denied the request');
    if (device.status === 'pending') {
      // A second early: a poll sent right on time may arrive a little before the interval is up.
      const early =
        device.lastPolledAt !== null && now - device.lastPolledAt < device.intervalS * 1000 - 1000;
      const interval = early ? device.intervalS + 5 : device.intervalS;
      await recordDevicePoll(tx, device.id, now, interval);
      return early
        ? refuse('token.device_code.slow_down', `poll at most every ${interval} seconds`)
        : refuse('token.device_code.pending', 'the user has not answered the request yet');
    }
    if (!(await redeemDeviceAuthorization(tx, device.id, now)))
      return refuse('token.device_code.reused', 'the device code was already used');
    const session = device.sessionId === null ? null : await liveSession(tx, device.sessionId, now);
    if (session === null)
      return refuse('token.device_code.session_ended', 'the session of this device code has ended');
    // Thrown, `invalid_target` rolls the redemption back: the device may poll again.
    const audience = org.isConsole ? null : await sessionAudience(tx, org, session, input.resource);
    const refreshToken = await addRefreshToken(tx, client, session, now, undefined, dpopJkt);
    return { session, refreshToken, audience };
  });
  if ('situation' in outcome) return fail(outcome.situation, outcome.description);
  return grantedTokens(deps, signer, org, outcome, now, dpopJkt, null);
}

const refuse = (situation: ErrorSituation, description: string): PollRefusal => ({ situation, description });
