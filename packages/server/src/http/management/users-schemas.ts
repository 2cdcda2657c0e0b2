import { z } from 'zod';
import { checkEmail, checkName } from '../../domain/directory/index.js';
import { PAGE_FIELDS } from './api-schemas.js';

/**
 * /organizations/{org}/users: the bodies and query the routes validate with and the responses they
 * send, declared once; the OpenAPI document is generated from the same objects.
 */

/** Whether the domain's own rule for people's input (domain/directory/validate.ts) accepts `value`. */
const accepted = (check: (value: string) => string) => (value: string) => {
  try {
    check(value);
    return true;
  } catch {
    return false;
  }
};

const Email = z
  .string()
  .refine(accepted(checkEmail), 'must be an email address of at most 254 characters')
  .meta({ format: 'email', maxLength: 254, description: 'unique in the org, whatever its case' });

/** The sign-up rule: 8 to 256 characters. */
const Password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(256, 'must be at most 256 characters')
  .meta({ description: 'never shown again; without one the user cannot sign in with a password' });

const name = (description: string) =>
  z
    .string()
    .refine(
      accepted((v) => checkName('name', v, 100)),
      'must be 1-100 characters (surrounding spaces are dropped), without control characters',
    )
    .nullable()
    .meta({ description: `${description}; null for none` });

const FirstName = name('given name');
const LastName = name('family name');

export const UsersQuery = z.strictObject({
  ...PAGE_FIELDS,
  q: z.string().trim().max(100, 'must be at most 100 characters').optional().meta({
    description: 'only users whose email, first or last name contains this text, in any case; empty for all',
  }),
});

export const CreateUserBody = z.strictObject({
  email: Email,
  password: Password.optional(),
  first_name: FirstName.optional(),
  last_name: LastName.optional(),
});

export const UpdateUserBody = z.strictObject({
  first_name: FirstName.optional(),
  last_name: LastName.optional(),
  disabled: z
    .boolean('must be true or false')
    .optional()
    .meta({ description: 'true refuses the user’s sign-in and ends every session they have' }),
});

export const User = z.object({
  id: z.string().meta({ pattern: '^usr_' }),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  disabled: z.boolean().meta({ description: 'an owner disabled the user: their sign-in is refused' }),
  created_at: z.string().meta({ format: 'date-time', description: 'ISO date-time with milliseconds, UTC' }),
});

export const UserList = z.array(User);
