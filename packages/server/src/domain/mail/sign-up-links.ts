import { newSecret, sha256 } from '../../crypto/random.js';
import {
  consumeSignUpRequest,
  findSignUpRequest,
  insertSignUpRequest,
} from '../../storage/repos/sign-up-requests.js';
import { findUserByEmail } from '../../storage/repos/users.js';
import { clock } from '../clock.js';
import { signUpAllowed, signUpRefusal } from '../directory/sign-up-policy.js';
import { insertUserWithTenant, prepareUser } from '../directory/users.js';
import { checkEmail, checkName, checkPassword } from '../directory/validate.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import type { Locale } from '../locales.js';
import { type Org, SYSTEM, type User } from '../types.js';
import type { MailDeps } from './deps.js';
import { MAIL_LINK_TTL_MS } from './mail-links.js';
import { mailTexts, verificationMail } from './messages.js';

/**
 * Sign-up under the `domains` policy (DESIGN §16, issue 41): an address at a listed domain says
 * nothing of who typed it, so the account is made only once the mailbox answers. The form takes
 * the address and names and mails the address-verification mail with a one-time link (24 hours,
 * like every verification link); the link's page takes the password and makes the account,
 * verified, then signs in. Whoever typed the address never chose a password for it, so an owner of
 * the mailbox who follows a link they did not ask for makes an account only they can use.
 *
 * Nothing tells whether the address has an account already: the same page answers, and no mail is
 * sent (the person signs in or resets their password). The token is stored as its SHA-256.
 */

export const SIGN_UP_LINK_PATH = '/signup/confirm';

export interface SignUpAsked {
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** How long a sign-up link works, in minutes (a verification link's time). */
export const SIGN_UP_LINK_MINUTES = MAIL_LINK_TTL_MS.verify / 60_000;

/** The form's values checked, refused as `signUp` refuses them (before anything is looked up). */
export function checkSignUpRequest(org: Org, input: SignUpAsked): SignUpAsked {
  const email = checkEmail(input.email);
  if (!signUpAllowed(org, email, { invited: false })) fail('sign_up.refused', signUpRefusal(org));
  return {
    email,
    firstName: input.firstName ? checkName('first name', input.firstName, 100) : null,
    lastName: input.lastName ? checkName('last name', input.lastName, 100) : null,
  };
}

/** Mails a sign-up link to a checked address that has no account yet (run once the page is answered). */
export async function mailSignUpLink(
  deps: MailDeps,
  org: Org,
  asked: SignUpAsked,
  locale: Locale | null = null,
): Promise<void> {
  const { email, firstName, lastName } = asked;
  const minutes = SIGN_UP_LINK_MINUTES;
  if (await findUserByEmail(deps.store, org.id, email)) return;
  const token = newSecret('tsu_');
  const now = clock.now();
  await insertSignUpRequest(deps.store, {
    tokenHash: sha256(token),
    orgId: org.id,
    email,
    firstName,
    lastName,
    createdAt: now,
    expiresAt: now + MAIL_LINK_TTL_MS.verify,
  });
  const url = new URL(SIGN_UP_LINK_PATH.slice(1), issuerOf(deps.config, org));
  url.searchParams.set('token', token);
  const words = await mailTexts(deps, org, null, locale);
  await deps.mailer.send(verificationMail(words, org, email, url.href, minutes));
}

const usable = (token: string) => token !== '' && token.length <= 200;

/** The address a live sign-up link is for, without using it; null when unknown, used or expired. */
export async function peekSignUp(deps: MailDeps, org: Org, token: string): Promise<string | null> {
  if (!usable(token)) return null;
  return (await findSignUpRequest(deps.store, org.id, sha256(token), clock.now()))?.email ?? null;
}

/**
 * Uses a sign-up link, once: the account, verified, with the password given now. Null when the
 * link is unknown, used or expired; `conflict` when the address got an account since; `forbidden`
 * when the policy no longer lets it in. The password is checked before the link is spent.
 */
export async function confirmSignUp(
  deps: MailDeps,
  org: Org,
  token: string,
  password: string,
): Promise<User | null> {
  checkPassword(password);
  if (!usable(token)) return null;
  const stored = await consumeSignUpRequest(deps.store, org.id, sha256(token), clock.now());
  if (stored === null) return null;
  if (!signUpAllowed(org, stored.email, { invited: false })) fail('sign_up.refused', signUpRefusal(org));
  const prepared = await prepareUser({
    email: stored.email,
    password,
    firstName: stored.firstName,
    lastName: stored.lastName,
  });
  const input = { ...prepared.input, origin: 'sign_up' as const, emailVerified: true };
  const { user } = await deps.unitOfWork.run((tx) =>
    insertUserWithTenant(tx, org.id, { ...prepared, input }, SYSTEM),
  );
  return user;
}
