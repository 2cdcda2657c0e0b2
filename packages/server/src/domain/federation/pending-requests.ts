import { newSecret, secretMatches, sha256 } from '../../crypto/random.js';
import {
  consumeFederationRequest,
  findFederationRequest,
  insertFederationRequest,
  purgeFederationRequests,
} from '../../storage/repos/connections.js';
import { clock } from '../clock.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import type { FederationDeps } from './deps.js';
import { refuse } from './refusal.js';
import type { UpstreamIdentity } from './upstream-identity.js';

/** A sign-in sent upstream has this long to come back. */
export const FEDERATION_REQUEST_TTL_MS = 10 * 60 * 1000;

/** A verified SAML answer waits this long for its browser to come back for it (saml-upstream.ts). */
export const FEDERATED_ANSWER_TTL_MS = 2 * 60 * 1000;

/** What a sign-in sent upstream keeps until its answer: sealed at rest. */
export interface PendingFederation {
  /** The authorization request (`req`) to go on with, if any. */
  requestId: string | null;
  /** OIDC: the PKCE verifier and the nonce. */
  verifier?: string;
  nonce?: string;
  /** SHA-256 of the browser-binding cookie of the browser that started the sign-in. */
  browser?: string;
  /** A verified answer waiting for that browser (SAML): who the upstream vouched for. */
  identity?: UpstreamIdentity;
  /** A link waiting for its proof (account-link-proofs.ts): the user, and the address mailed. */
  link?: { userId: string; sentTo: string };
}

/** Where an answer's one-time id is kept: apart from the states and request ids sent upstream. */
const answerKey = (answerId: string) => `answer:${answerId}`;

/** Where a mailed account link's token is kept (account-link-proofs.ts): apart from the rest. */
const linkKey = (token: string) => `link:${token}`;

/** Remembers a sign-in sent upstream under `key` (the OIDC state or the SAML request id). */
export async function rememberFederation(
  deps: FederationDeps,
  connectionId: string,
  key: string,
  pending: PendingFederation,
  ttlMs = FEDERATION_REQUEST_TTL_MS,
): Promise<void> {
  const now = clock.now();
  await purgeAtMostEveryMinute(deps.store, 'federation_requests', now, (db) =>
    purgeFederationRequests(db, now),
  );
  await insertFederationRequest(deps.store, {
    keyHash: sha256(key),
    connectionId,
    requestId: pending.requestId,
    sealedData: deps.sealer.seal(JSON.stringify(pending)),
    createdAt: now,
    expiresAt: now + ttlMs,
  });
}

const open = (deps: FederationDeps, sealed: string) =>
  JSON.parse(deps.sealer.open(sealed)) as PendingFederation;

/** The live sign-in under `key`, used up (single use); null when unknown, used or expired. */
export async function takeFederation(
  deps: FederationDeps,
  connectionId: string,
  key: string,
): Promise<PendingFederation | null> {
  const stored = await consumeFederationRequest(deps.store, connectionId, sha256(key), clock.now());
  return stored === null ? null : open(deps, stored.sealedData);
}

/** The live sign-in under `key` and when it was sent, left in place; null when unknown or expired. */
export async function peekFederation(
  deps: FederationDeps,
  connectionId: string,
  key: string,
): Promise<{ pending: PendingFederation; createdAt: number } | null> {
  const stored = await findFederationRequest(deps.store, connectionId, sha256(key), clock.now());
  return stored === null ? null : { pending: open(deps, stored.sealedData), createdAt: stored.createdAt };
}

/** A new value for a browser-binding cookie (http/sign-in/federation-binding.ts): 32 random bytes. */
export const newBrowserBinding = (): string => newSecret('');

/** Whether a cookie's value has the shape of a browser binding. */
export const isBrowserBinding = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/** The hash kept of a browser-binding cookie's value. */
export const browserBindingHash = (binding: string): string => sha256(binding);

/** Whether `binding` (the cookie this request carries, if any) is the one `pending` was bound to. */
const sameBrowser = (pending: PendingFederation, binding: string | null): boolean =>
  binding !== null && pending.browser !== undefined && secretMatches(binding, pending.browser);

export const EXPIRED_SIGN_IN = 'This sign-in link has expired or was already used. Start again.';
export const OTHER_BROWSER =
  'This sign-in was started in another browser, or this browser did not keep its cookie. Sign in again here.';

/**
 * The live record under `key`, used up only when this browser is the one that started the
 * sign-in: the one-time DELETE then decides, so two deliveries cannot both go on. A record
 * delivered to another browser (or one without the cookie) is refused and left in place for the
 * browser it belongs to, until it expires.
 */
async function takeBound(
  deps: FederationDeps,
  connectionId: string,
  key: string,
  binding: string | null,
): Promise<PendingFederation> {
  const found = await peekFederation(deps, connectionId, key);
  if (found === null) return refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
  if (!sameBrowser(found.pending, binding)) return refuse('federation.sign_in.other_browser', OTHER_BROWSER);
  return (
    (await takeFederation(deps, connectionId, key)) ?? refuse('federation.sign_in.expired', EXPIRED_SIGN_IN)
  );
}

/** OIDC: the sign-in sent upstream under `state`, if this browser started it (else refused). */
export async function takeBoundFederation(
  deps: FederationDeps,
  connectionId: string,
  state: string,
  binding: string | null,
): Promise<PendingFederation> {
  const pending = await takeBound(deps, connectionId, state, binding);
  return pending.identity === undefined && pending.link === undefined
    ? pending
    : refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
}

/**
 * Keeps a verified answer for the browser that started the sign-in, under a new one-time id (the
 * only thing handed to the browser that delivered the answer); short lived.
 */
export async function holdFederatedAnswer(
  deps: FederationDeps,
  connectionId: string,
  answer: { identity: UpstreamIdentity; requestId: string | null; browser: string | undefined },
): Promise<string> {
  const answerId = newSecret('');
  const held: PendingFederation = { requestId: answer.requestId, identity: answer.identity };
  if (answer.browser !== undefined) held.browser = answer.browser;
  await rememberFederation(deps, connectionId, answerKey(answerId), held, FEDERATED_ANSWER_TTL_MS);
  return answerId;
}

/** The answer held under `answerId`, used up, if this browser started its sign-in (else refused). */
export async function takeFederatedAnswer(
  deps: FederationDeps,
  connectionId: string,
  answerId: string,
  binding: string | null,
): Promise<{ identity: UpstreamIdentity; requestId: string | null }> {
  if (answerId === '') return refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
  const held = await takeBound(deps, connectionId, answerKey(answerId), binding);
  return held.identity === undefined || held.link !== undefined
    ? refuse('federation.sign_in.expired', EXPIRED_SIGN_IN)
    : { identity: held.identity, requestId: held.requestId };
}

/** An upstream sign-in waiting for the proof of the account it is to be linked to. */
export interface HeldAccountLink {
  identity: UpstreamIdentity;
  requestId: string | null;
  link: { userId: string; sentTo: string };
}

/** Keeps a sign-in waiting for its mailed link under the link's token, for the browser (`browser`: its hash). */
export async function holdAccountLink(
  deps: FederationDeps,
  connectionId: string,
  token: string,
  held: HeldAccountLink & { browser: string },
  ttlMs: number,
): Promise<void> {
  await rememberFederation(deps, connectionId, linkKey(token), held, ttlMs);
}

const heldLink = (pending: PendingFederation): HeldAccountLink =>
  pending.identity === undefined || pending.link === undefined
    ? refuse('federation.sign_in.expired', EXPIRED_SIGN_IN)
    : { identity: pending.identity, requestId: pending.requestId, link: pending.link };

const usableToken = (token: string) => token !== '' && token.length <= 200;

/** The sign-in waiting under a mailed link's token, left in place; refused when gone or for another browser. */
export async function peekAccountLink(
  deps: FederationDeps,
  connectionId: string,
  token: string,
  binding: string | null,
): Promise<HeldAccountLink> {
  const found = usableToken(token) ? await peekFederation(deps, connectionId, linkKey(token)) : null;
  if (found === null) return refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
  if (!sameBrowser(found.pending, binding)) return refuse('federation.sign_in.other_browser', OTHER_BROWSER);
  return heldLink(found.pending);
}

/** The same, used up (single use), only in the browser that signed in upstream. */
export async function takeAccountLink(
  deps: FederationDeps,
  connectionId: string,
  token: string,
  binding: string | null,
): Promise<HeldAccountLink> {
  if (!usableToken(token)) return refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
  return heldLink(await takeBound(deps, connectionId, linkKey(token), binding));
}
