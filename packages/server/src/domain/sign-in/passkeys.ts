import { newId, sha256 } from '../../crypto/random.js';
import {
  type AuthenticationResponseJSON,
  authenticationOptions,
  challengeOf,
  checkAuthentication,
  checkRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type RelyingParty,
  registrationOptions,
  userHandleOf,
} from '../../crypto/webauthn.js';
import {
  consumePasskeyChallenge,
  deletePasskey,
  findPasskeyByCredential,
  insertPasskey,
  insertPasskeyChallenge,
  listPasskeys,
  purgePasskeyChallenges,
  recordPasskeyUse,
} from '../../storage/repos/passkeys.js';
import { findUserById } from '../../storage/repos/users.js';
import { byTheUser } from '../audit/audit.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { issuerOf } from '../issuers.js';
import {
  ACR_MFA,
  AMR_HARDWARE_KEY,
  AMR_MULTIPLE_FACTORS,
  AMR_USER_PRESENCE,
  MAX_PASSKEYS_PER_USER,
  PASSKEY_CHALLENGE_TTL_MS,
} from '../tokens-policy.js';
import type { Org, PasskeyCredential, PasskeyPurpose, User } from '../types.js';
import type { SignInMethod } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/**
 * Passkeys (DESIGN §12, docs/passkeys.md): WebAuthn credentials a user registers on the profile
 * page and signs in with on the login page.
 *
 * - Each org is its own relying party: the RP id is its issuer's host name, the expected origin
 *   its issuer's origin (the console too). A passkey made on one org's host is never offered on,
 *   nor accepted by, another's.
 * - Discoverable credentials and user verification are required, so a passkey alone signs a
 *   person in (no address typed) as two factors: `amr` `hwk`, `user`, `mfa`, `acr` the MFA level,
 *   which satisfies an org that requires a second factor.
 * - Every ceremony's challenge is stored as its SHA-256, for one purpose, bound to the browser that
 *   asked (the SHA-256 of its CSRF cookie value) and, when registering, to the user; it is used
 *   once (deleted when answered, whatever the answer) and expires after PASSKEY_CHALLENGE_TTL_MS.
 * - The user handle given to authenticators is the user id (random, no personal data); a sign-in
 *   whose handle names another user than the credential's is refused.
 */

/** How a passkey sign-in is recorded: possession of the key, the person verified, two factors. */
export const PASSKEY_SIGN_IN: SignInMethod = Object.freeze({
  amr: [AMR_HARDWARE_KEY, AMR_USER_PRESENCE, AMR_MULTIPLE_FACTORS],
  acr: ACR_MFA,
});

/** The sign-in method of one passkey: PASSKEY_SIGN_IN, with the passkey named in `user.login`. */
export const passkeySignInMethod = (passkey: Passkey): SignInMethod => ({
  ...PASSKEY_SIGN_IN,
  audit: { passkeyId: passkey.id, passkeyName: passkey.name },
});

/** The longest name a passkey may be given. */
export const PASSKEY_NAME_MAX = 64;

export interface Passkey {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** Synced between devices (`multiDevice`) or bound to one. */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

const passkeyOf = (p: PasskeyCredential): Passkey => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt,
  lastUsedAt: p.lastUsedAt,
  deviceType: p.deviceType,
  backedUp: p.backedUp,
});

/** What the audit log keeps of a passkey: never the public key nor the credential id. */
const passkeySnapshot = (p: PasskeyCredential) => ({
  ...fieldsOf(p, ['id', 'userId', 'name', 'aaguid', 'deviceType', 'backedUp']),
  ...isoTimesOf(p, ['createdAt', 'lastUsedAt']),
});

/** `passkey.created|deleted`, also when an account handover removes them (federation/account-handover.ts). */
export const passkeyAudit = auditTrail('passkey', passkeySnapshot);

/**
 * Whether other orgs share this deployment's relying party: with path issuers every org (and the
 * console) is on the base host, so a passkey one org does not know may be another's. A page must
 * then not tell the browser the passkey is unknown (WebAuthn's signalUnknownCredential): the
 * authenticator would drop it for the host, and with it the person's sign-in at the org it is for.
 */
export const relyingPartyIsShared = (config: Pick<SignInDeps['config'], 'issuerStyle'>): boolean =>
  config.issuerStyle === 'path';

/** The org's relying party: its issuer's host name and origin. */
export function relyingPartyOf(deps: SignInDeps, org: Org): RelyingParty {
  const issuer = new URL(issuerOf(deps.config, org));
  return { id: issuer.hostname, name: org.name, origin: issuer.origin };
}

export async function listUserPasskeys(deps: SignInDeps, userId: string): Promise<Passkey[]> {
  return (await listPasskeys(deps.store, userId)).map(passkeyOf);
}

/** Stores a new challenge for this browser; `browser` is the value of its CSRF cookie. */
async function issueChallenge(
  deps: SignInDeps,
  org: Org,
  purpose: PasskeyPurpose,
  challenge: string,
  browser: string,
  userId: string | null,
) {
  const now = clock.now();
  await purgePasskeyChallenges(deps.store, now);
  await insertPasskeyChallenge(deps.store, {
    challengeHash: sha256(challenge),
    orgId: org.id,
    purpose,
    userId,
    browserHash: sha256(browser),
    createdAt: now,
    expiresAt: now + PASSKEY_CHALLENGE_TTL_MS,
  });
}

/** Takes the challenge a response answers, once: null when unknown, used, expired or another's. */
function takeChallenge(
  deps: SignInDeps,
  org: Org,
  purpose: PasskeyPurpose,
  clientDataJSON: string,
  browser: string,
) {
  const challenge = challengeOf(clientDataJSON);
  if (challenge === null || browser === '') return Promise.resolve(null);
  return consumePasskeyChallenge(deps.store, {
    challengeHash: sha256(challenge),
    orgId: org.id,
    purpose,
    browserHash: sha256(browser),
    now: clock.now(),
  }).then((stored) => (stored === null ? null : { stored, challenge }));
}

export type RegistrationOptionsOutcome =
  | { ok: true; options: PublicKeyCredentialCreationOptionsJSON }
  | { ok: false; reason: 'too_many' };

/** Options for adding a passkey: the user's own passkeys are excluded (one per authenticator). */
export async function startPasskeyRegistration(
  deps: SignInDeps,
  org: Org,
  user: User,
  browser: string,
): Promise<RegistrationOptionsOutcome> {
  const existing = await listPasskeys(deps.store, user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) return { ok: false, reason: 'too_many' };
  const displayName = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
  const options = await registrationOptions(
    relyingPartyOf(deps, org),
    { handle: user.id, name: user.email, displayName },
    existing.map((p) => ({ credentialId: p.credentialId, transports: p.transports })),
  );
  await issueChallenge(deps, org, 'register', options.challenge, browser, user.id);
  return { ok: true, options };
}

/** A passkey's name as given: trimmed, 1 to PASSKEY_NAME_MAX characters, or null. */
export function passkeyName(raw: string): string | null {
  const name = raw.trim().replace(/\s+/g, ' ');
  return name.length >= 1 && [...name].length <= PASSKEY_NAME_MAX ? name : null;
}

export type RegistrationOutcome =
  | { ok: true; passkey: Passkey }
  | { ok: false; reason: 'expired' | 'invalid' | 'duplicate' | 'too_many' };

/**
 * Checks the browser's answer to the registration options and stores the passkey, recording
 * `passkey.created` in the same transaction.
 */
export async function finishPasskeyRegistration(
  deps: SignInDeps,
  org: Org,
  user: User,
  input: { name: string; response: RegistrationResponseJSON; browser: string },
): Promise<RegistrationOutcome> {
  const taken = await takeChallenge(
    deps,
    org,
    'register',
    input.response.response.clientDataJSON,
    input.browser,
  );
  if (taken === null || taken.stored.userId !== user.id) return { ok: false, reason: 'expired' };
  const credential = await checkRegistration(relyingPartyOf(deps, org), taken.challenge, input.response);
  if (credential === null) return { ok: false, reason: 'invalid' };
  const now = clock.now();
  const passkey: PasskeyCredential = {
    id: newId('psk'),
    orgId: org.id,
    userId: user.id,
    credentialId: credential.credentialId,
    publicKey: credential.publicKey,
    signCount: credential.counter,
    transports: credential.transports,
    aaguid: credential.aaguid,
    deviceType: credential.deviceType,
    backedUp: credential.backedUp,
    name: input.name,
    createdAt: now,
    lastUsedAt: null,
  };
  return deps.unitOfWork.run(async (tx): Promise<RegistrationOutcome> => {
    if ((await listPasskeys(tx, user.id)).length >= MAX_PASSKEYS_PER_USER)
      return { ok: false, reason: 'too_many' };
    if (!(await insertPasskey(tx, passkey))) return { ok: false, reason: 'duplicate' };
    await passkeyAudit.created(tx, byTheUser(org.id, user.id, now), passkey);
    return { ok: true, passkey: passkeyOf(passkey) };
  });
}

/** Removes one of the user's passkeys, recording `passkey.deleted`; null when they have none by that id. */
export async function removePasskey(
  deps: SignInDeps,
  org: Org,
  user: User,
  id: string,
): Promise<Passkey | null> {
  return deps.unitOfWork.run(async (tx) => {
    const deleted = await deletePasskey(tx, user.id, id);
    if (deleted === null) return null;
    await passkeyAudit.deleted(tx, byTheUser(org.id, user.id), deleted);
    return passkeyOf(deleted);
  });
}

/** Options for signing in with a passkey: no credentials listed, the authenticator offers its own. */
export async function startPasskeySignIn(
  deps: SignInDeps,
  org: Org,
  browser: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await authenticationOptions(relyingPartyOf(deps, org));
  await issueChallenge(deps, org, 'sign_in', options.challenge, browser, null);
  return options;
}

export type PasskeySignInOutcome =
  | { ok: true; user: User; passkey: Passkey }
  | { ok: false; reason: 'expired' | 'unknown' | 'invalid' };

/**
 * Checks a sign-in assertion: the challenge this browser was given, a passkey of this org (a
 * removed one, or another org's, is `unknown`), the user it belongs to (a disabled user is refused
 * like a bad signature), and the signature, flags and counter. Records the use.
 */
export async function finishPasskeySignIn(
  deps: SignInDeps,
  org: Org,
  input: { response: AuthenticationResponseJSON; browser: string },
): Promise<PasskeySignInOutcome> {
  const { response } = input;
  const taken = await takeChallenge(deps, org, 'sign_in', response.response.clientDataJSON, input.browser);
  if (taken === null) return { ok: false, reason: 'expired' };
  const stored = await findPasskeyByCredential(deps.store, org.id, response.id);
  if (stored === null) return { ok: false, reason: 'unknown' };
  const handle = userHandleOf(response);
  if (handle !== null && handle !== stored.userId) return { ok: false, reason: 'invalid' };
  const checked = await checkAuthentication(relyingPartyOf(deps, org), taken.challenge, response, {
    credentialId: stored.credentialId,
    publicKey: stored.publicKey,
    counter: stored.signCount,
    transports: stored.transports,
  });
  if (checked === null) return { ok: false, reason: 'invalid' };
  const user = await findUserById(deps.store, stored.userId);
  if (user === null || user.disabled) return { ok: false, reason: 'invalid' };
  const now = clock.now();
  const recorded = await recordPasskeyUse(deps.store, stored.id, {
    previousCount: stored.signCount,
    signCount: checked.counter,
    backedUp: checked.backedUp,
    at: now,
  });
  if (!recorded) return { ok: false, reason: 'invalid' };
  return {
    ok: true,
    user,
    passkey: passkeyOf({
      ...stored,
      signCount: checked.counter,
      backedUp: checked.backedUp,
      lastUsedAt: now,
    }),
  };
}
