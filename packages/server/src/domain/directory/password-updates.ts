import type { Handle } from '../../storage/handle.js';
import { byTheUser, recordAudit } from '../audit/audit.js';
import { type InputProblem, inputProblemOf } from '../errors.js';
import type { User } from '../types.js';
import { checkPassword } from './validate.js';

/** A password set anew, by a reset link (mail) or on the profile page (sign-in): its rule and its audit. */

/** The new password's rule (the sign-up one), as what the form says; null when it passes. */
export function passwordProblem(password: string): InputProblem | null {
  try {
    checkPassword(password);
    return null;
  } catch (error) {
    return inputProblemOf(error);
  }
}

/** Records a password set by reset or change, without the password: `password.updated`. */
export async function auditPassword(
  tx: Handle,
  user: User,
  method: 'reset' | 'change',
  sessionsEnded: number,
  now: number,
) {
  await recordAudit(tx, {
    ...byTheUser(user.orgId, user.id, now),
    entity: 'password',
    verb: 'updated',
    data: { userId: user.id, method, sessionsEnded },
  });
}
