import { signUpAllowed, signUpRefusal } from '../directory/sign-up-policy.js';
import { insertUserWithTenant, prepareUser } from '../directory/users.js';
import { checkEmail } from '../directory/validate.js';
import { fail } from '../errors.js';
import { type Org, SYSTEM, type User } from '../types.js';
import type { SignInDeps } from './deps.js';

export interface SignUp {
  email: string;
  password: string;
  firstName: string | null;
  lastName: string | null;
}

/**
 * Self sign-up: the user and their personal tenant (DESIGN §5), audited. The actor is the
 * system: the person has no id until this transaction creates it. The org's sign-up policy
 * decides who may (403 `forbidden` with words for the person otherwise); under `domains` the
 * account is made only from the mailed link (mail/sign-up-links.ts), never here.
 */
export async function signUp(deps: SignInDeps, org: Org, input: SignUp): Promise<User> {
  // Before the password is hashed: a refusal costs nothing.
  if (!signUpAllowed(org, checkEmail(input.email), { invited: false }))
    fail('sign_up.refused', signUpRefusal(org));
  // `domains`: the account is made by the mailed link only (mail/sign-up-links.ts).
  if (org.signUp === 'domains')
    fail('sign_up.link_required', 'Accounts here are created from a link mailed to the address.');
  const prepared = await prepareUser(input);
  const selfService = { ...prepared, input: { ...prepared.input, origin: 'sign_up' as const } };
  const { user } = await deps.unitOfWork.run((tx) => insertUserWithTenant(tx, org.id, selfService, SYSTEM));
  return user;
}
