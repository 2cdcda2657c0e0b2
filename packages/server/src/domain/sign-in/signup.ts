import type { Deps } from '../context.js';
import { insertUserWithTenant, prepareUser } from '../directory/users.js';
import { fail } from '../errors.js';
import { type Org, SYSTEM, type User } from '../types.js';

export interface SignUp {
  email: string;
  password: string;
  firstName: string | null;
  lastName: string | null;
}

/** Whether people may create their own account on this org's hosted pages. */
export const signupOpen = (org: Org): boolean => org.allowSignup && !org.isConsole;

/**
 * Self sign-up: the user and their personal tenant (DESIGN §5), audited. The actor is the
 * system: the person has no id until this transaction creates it.
 */
export async function signUp(deps: Deps, org: Org, input: SignUp): Promise<User> {
  if (!signupOpen(org)) fail('forbidden', 'sign-up is closed for this organization');
  const prepared = await prepareUser(input);
  const { user } = await deps.db
    .transaction()
    .execute((trx) => insertUserWithTenant(trx, org.id, prepared, SYSTEM));
  return user;
}
