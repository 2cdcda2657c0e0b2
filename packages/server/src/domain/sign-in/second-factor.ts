import { randomBytes } from 'node:crypto';
import { sha256 } from '../../crypto/random.js';
import { base32Encode, matchTotp, newTotpSecret, otpauthUri } from '../../crypto/totp.js';
import {
  acceptTotpStep,
  consumeRecoveryCode,
  countUnusedRecoveryCodes,
  deleteTotpFactor,
  findRequireMfa,
  findTotpFactor,
  putPendingTotpFactor,
  replaceRecoveryCodes,
} from '../../storage/repos/second-factors.js';
import { findUserById } from '../../storage/repos/users.js';
import { byTheUser, recordAudit } from '../audit/audit.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { ACR_PASSWORD } from '../tokens-policy.js';
import type { Org, User } from '../types.js';
import type { SignInDeps } from './deps.js';
import {
  reserveSecondFactorAttempt,
  secondFactorSucceeded,
  type Throttled,
  throttled,
} from './login-throttle.js';

/** How many one-time recovery codes an enrolment gives (shown once). */
export const RECOVERY_CODE_COUNT = 10;

export type CodeOutcome =
  | { ok: true; method: 'totp' | 'recovery' }
  | { ok: false; reason: 'invalid' }
  | Throttled;

export interface SecondFactorStatus {
  enrolled: boolean;
  recoveryCodesLeft: number;
}

/** Where a user's second factor stands: none, an enrolment begun but not confirmed, or on. */
export type SecondFactorStage = 'none' | 'enrolling' | 'enrolled';

export async function secondFactorStage(deps: SignInDeps, userId: string): Promise<SecondFactorStage> {
  const factor = await findTotpFactor(deps.store, userId);
  if (factor === null) return 'none';
  return factor.confirmedAt === null ? 'enrolling' : 'enrolled';
}

export async function secondFactorStatus(deps: SignInDeps, userId: string): Promise<SecondFactorStatus> {
  const enrolled = (await secondFactorStage(deps, userId)) === 'enrolled';
  return { enrolled, recoveryCodesLeft: enrolled ? await countUnusedRecoveryCodes(deps.store, userId) : 0 };
}

/**
 * The user whose password was just checked on this browser (the second step's cookie names
 * them), or null when they no longer exist.
 */
export const userAwaitingSecondFactor = (deps: SignInDeps, userId: string): Promise<User | null> =>
  findUserById(deps.store, userId);

/** Whether the org makes every user sign in with a second factor (`tessera org update --require-mfa`). */
export async function orgRequiresMfa(deps: SignInDeps, org: Org): Promise<boolean> {
  const read = () => findRequireMfa(deps.store, org.id);
  return deps.signInPolicies ? (await deps.signInPolicies.get(org.id, read)) === true : read();
}

/**
 * The second step a sign-in of `acr` still needs: a password alone goes on to the code challenge
 * when the user has a factor, to enrolment when the org requires one and the user has none; null
 * when none is due (every other way of signing in: a second factor, a passkey, a connection, an
 * impersonation).
 */
export async function secondStepDue(
  deps: SignInDeps,
  org: Org,
  user: User,
  acr: string,
): Promise<'challenge' | 'enrol' | null> {
  if (acr !== ACR_PASSWORD) return null;
  if ((await secondFactorStage(deps, user.id)) === 'enrolled') return 'challenge';
  return (await orgRequiresMfa(deps, org)) ? 'enrol' : null;
}

export interface Enrolment {
  /** Base32, for typing into an authenticator app. */
  secret: string;
  /** The `otpauth://` URI the QR code holds. */
  uri: string;
}

/**
 * The enrolment in progress for the user: the unconfirmed secret (sealed at rest), or a new one.
 * `restart` draws a new secret even when one is pending. Refused once a factor is confirmed.
 */
export async function pendingEnrolment(
  deps: SignInDeps,
  org: Org,
  user: User,
  restart = false,
): Promise<Enrolment> {
  const existing = await findTotpFactor(deps.store, user.id);
  if (existing?.confirmedAt)
    return fail('second_factor.already_set_up', 'two-step verification is already set up');
  let secret = existing && !restart ? deps.sealer.open(existing.sealedSecret) : null;
  if (secret === null) {
    secret = newTotpSecret();
    const stored = await putPendingTotpFactor(deps.store, {
      userId: user.id,
      orgId: org.id,
      sealedSecret: deps.sealer.seal(secret),
      confirmedAt: null,
      lastStep: null,
      createdAt: clock.now(),
    });
    if (!stored) return fail('second_factor.already_set_up', 'two-step verification is already set up');
  }
  return { secret, uri: otpauthUri(secret, org.name, user.email) };
}

/** A recovery code: 80 random bits as base32, shown in four groups (`abcd-efgh-ijkl-mnop`). */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(10)).toLowerCase();
  return text.match(/.{4}/g)?.join('-') ?? text;
}

/** What is stored of a recovery code: salted with the user, case, spaces and dashes ignored. */
function recoveryHash(userId: string, code: string): string | null {
  const clean = code.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z2-7]{16}$/.test(clean) ? sha256(`${userId}:${clean}`) : null;
}

async function throttle(deps: SignInDeps, org: Org, userId: string, ip: string): Promise<CodeOutcome | null> {
  const verdict = await reserveSecondFactorAttempt(deps.store, org.id, userId, ip, clock.now());
  return verdict.allowed ? null : throttled(verdict);
}

/**
 * Confirms the pending enrolment with a first code; then stores fresh recovery codes (hashed) and
 * records `second_factor.created`, in one transaction. Returns the recovery codes, to be shown once.
 */
export async function confirmEnrolment(
  deps: SignInDeps,
  org: Org,
  user: User,
  code: string,
  ip: string,
): Promise<CodeOutcome | { ok: true; method: 'totp'; recoveryCodes: string[] }> {
  const refused = await throttle(deps, org, user.id, ip);
  if (refused) return refused;
  const factor = await findTotpFactor(deps.store, user.id);
  if (!factor || factor.confirmedAt !== null) return { ok: false, reason: 'invalid' };
  const now = clock.now();
  const step = matchTotp(deps.sealer.open(factor.sealedSecret), code.trim(), now);
  if (step === null) return { ok: false, reason: 'invalid' };
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const accepted = await deps.unitOfWork.run(async (tx) => {
    if (!(await acceptTotpStep(tx, user.id, step, now))) return false;
    const hashes = recoveryCodes.map((c) => recoveryHash(user.id, c) as string);
    await replaceRecoveryCodes(tx, user.id, hashes, now);
    await recordAudit(tx, {
      ...byTheUser(org.id, user.id, now),
      entity: 'second_factor',
      verb: 'created',
      data: { userId: user.id, type: 'totp', recoveryCodes: RECOVERY_CODE_COUNT },
    });
    return true;
  });
  if (!accepted) return { ok: false, reason: 'invalid' };
  await secondFactorSucceeded(deps.store, org.id, user.id, ip);
  return { ok: true, method: 'totp', recoveryCodes };
}

/**
 * Checks a second-factor code of an enrolled user: six digits are a TOTP code (accepted at most
 * once: its time step must be later than the last accepted one), anything else a recovery code
 * (single use). Throttled per user and per IP before anything is compared.
 */
export async function verifySecondFactor(
  deps: SignInDeps,
  org: Org,
  userId: string,
  code: string,
  ip: string,
): Promise<CodeOutcome> {
  const refused = await throttle(deps, org, userId, ip);
  if (refused) return refused;
  const factor = await findTotpFactor(deps.store, userId);
  if (!factor?.confirmedAt) return { ok: false, reason: 'invalid' };
  const now = clock.now();
  const presented = code.trim();
  let method: 'totp' | 'recovery' | null = null;
  if (/^\d{6}$/.test(presented)) {
    const step = matchTotp(deps.sealer.open(factor.sealedSecret), presented, now);
    if (step !== null && (await acceptTotpStep(deps.store, userId, step, now))) method = 'totp';
  } else {
    const hash = recoveryHash(userId, presented);
    if (hash !== null && (await consumeRecoveryCode(deps.store, userId, hash, now))) method = 'recovery';
  }
  if (method === null) return { ok: false, reason: 'invalid' };
  await secondFactorSucceeded(deps.store, org.id, userId, ip);
  return { ok: true, method };
}

/** Turns two-step verification off with a current code; refused while the org requires it. */
export async function removeSecondFactor(
  deps: SignInDeps,
  org: Org,
  user: User,
  code: string,
  ip: string,
): Promise<CodeOutcome> {
  if (await orgRequiresMfa(deps, org)) {
    return fail('second_factor.required', 'your organization requires two-step verification');
  }
  const outcome = await verifySecondFactor(deps, org, user.id, code, ip);
  if (!outcome.ok) return outcome;
  const now = clock.now();
  await deps.unitOfWork.run(async (tx) => {
    await deleteTotpFactor(tx, user.id);
    await recordAudit(tx, {
      ...byTheUser(org.id, user.id, now),
      entity: 'second_factor',
      verb: 'deleted',
      data: { userId: user.id, type: 'totp' },
    });
  });
  return outcome;
}
