import { z } from 'zod';
import {
  checkAddress,
  checkBirthdate,
  checkClaimText,
  checkClaimUrl,
  checkEmail,
  checkLocale,
  checkName,
  checkPhoneNumber,
  checkZoneinfo,
} from '../../domain/directory/index.js';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt } from './instant-fields.js';

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

const FirstName = name('given name (OIDC `given_name`)');
const LastName = name('family name (OIDC `family_name`)');

/** An OIDC Core §5.1 claim checked by its rule in domain/directory/standard-claims.ts; null clears it. */
const claim = (rule: (value: string) => string, message: string, description: string, format?: string) =>
  z
    .string()
    .refine(accepted(rule), message)
    .nullable()
    .meta({ description: `${description}; null for none`, ...(format === undefined ? {} : { format }) });

const text = (field: string, description: string) =>
  claim(
    (v) => checkClaimText(field, v),
    'must be 1-100 characters (surrounding spaces are dropped), without control characters',
    description,
  );
const url = (field: string, description: string) =>
  claim(
    (v) => checkClaimUrl(field, v),
    'must be an http or https URL of at most 2000 characters',
    description,
    'uri',
  );

const AddressPart = (description: string) =>
  z.string().max(500, 'must be at most 500 characters').optional().meta({ description });

/** OIDC Core §5.1.1. */
const Address = z
  .strictObject({
    formatted: AddressPart('the full address as it is written on mail; may span lines'),
    street_address: AddressPart('street, house number, apartment…; may span lines'),
    locality: AddressPart('city or locality'),
    region: AddressPart('state, province or region'),
    postal_code: AddressPart('postal or ZIP code'),
    country: AddressPart('country name'),
  })
  .refine((a) => {
    try {
      checkAddress(a);
      return true;
    } catch {
      return false;
    }
  }, 'parts must be 1-200 characters a line, without control characters')
  .nullable()
  .meta({ description: 'postal address (OIDC `address`); null for none' });

/** The OIDC Core §5.1 claims beyond names and email, writable by create and update alike. */
const STANDARD_CLAIM_FIELDS = {
  middle_name: text('middle_name', 'middle name'),
  nickname: text('nickname', 'casual name'),
  preferred_username: text('preferred_username', 'the name the person wants to be shown'),
  profile: url('profile', 'URL of the person’s profile page'),
  picture: url('picture', 'URL of a picture of the person'),
  website: url('website', 'URL of the person’s web page or blog'),
  gender: text('gender', '`female`, `male`, or any other value'),
  birthdate: claim(
    checkBirthdate,
    'must be YYYY or YYYY-MM-DD, a real date',
    '`YYYY` or `YYYY-MM-DD` (`0000` for a year left out)',
  ),
  zoneinfo: claim(checkZoneinfo, 'must be an IANA time zone such as Europe/Paris', 'IANA time zone'),
  locale: claim(
    checkLocale,
    'must be a BCP 47 language tag such as fr-CA',
    'BCP 47 language tag, stored canonical',
  ),
  phone_number: claim(checkPhoneNumber, 'must be E.164, such as +14155550100', 'E.164 phone number'),
  phone_number_verified: z.boolean('must be true or false').meta({
    description: 'the owner vouches for the number; false again whenever the number changes without it',
  }),
  address: Address,
};

const optionalClaims = Object.fromEntries(
  Object.entries(STANDARD_CLAIM_FIELDS).map(([k, v]) => [k, v.optional()]),
) as { [K in keyof typeof STANDARD_CLAIM_FIELDS]: z.ZodOptional<(typeof STANDARD_CLAIM_FIELDS)[K]> };

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
  ...optionalClaims,
});

export const UpdateUserBody = z.strictObject({
  first_name: FirstName.optional(),
  last_name: LastName.optional(),
  ...optionalClaims,
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
  created_at: CreatedAt,
  middle_name: z.string().nullable(),
  nickname: z.string().nullable(),
  preferred_username: z.string().nullable(),
  profile: z.string().nullable(),
  picture: z.string().nullable(),
  website: z.string().nullable(),
  gender: z.string().nullable(),
  birthdate: z.string().nullable(),
  zoneinfo: z.string().nullable(),
  locale: z.string().nullable(),
  phone_number: z.string().nullable(),
  phone_number_verified: z.boolean(),
  address: z
    .object({
      formatted: z.string().optional(),
      street_address: z.string().optional(),
      locality: z.string().optional(),
      region: z.string().optional(),
      postal_code: z.string().optional(),
      country: z.string().optional(),
    })
    .nullable(),
  updated_at: z.string().meta({
    format: 'date-time',
    description:
      'last change of the user (OIDC `updated_at`, in seconds there); ISO date-time with milliseconds, UTC',
  }),
});

export const UserList = z.array(User);
