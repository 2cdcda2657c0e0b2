import { z } from 'zod';
import { checkName, checkSlug } from '../../domain/directory/index.js';
import { ServiceError } from '../../domain/errors.js';
import { PAGE_FIELDS } from './api-schemas.js';

/**
 * A string checked by one of the domain's rules for values that come from people (the CLI applies
 * the same ones): a refusal becomes this field's issue, its message without the leading field name
 * (`slug: must be 1-40 …`, as jsonBody names the field itself).
 */
export function checkedBy(field: string, check: (value: string) => string) {
  return z.string().transform((value, ctx) => {
    try {
      return check(value);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.detail === undefined) throw error;
      const detail = error.detail.startsWith(`${field} `)
        ? error.detail.slice(field.length + 1)
        : error.detail;
      ctx.addIssue({ code: 'custom', message: detail, params: { situation: error.situation } });
      return z.NEVER;
    }
  });
}

export const OrganizationSlug = checkedBy('slug', checkSlug).meta({
  description: '1-40 lowercase letters, digits or inner hyphens; names the org’s host; never changes',
  examples: ['acme'],
});

export const OrganizationName = checkedBy('name', (value) => checkName('name', value)).meta({
  description: '1-200 characters, no control characters; leading and trailing spaces are dropped',
});

const Role = z.enum(['owner', 'member']);

/** GET /organizations: paging only. */
export const OrganizationsQuery = z.strictObject({ ...PAGE_FIELDS });

export const OrganizationOfCaller = z.object({
  id: z.string().meta({ pattern: '^org_' }),
  slug: z.string(),
  name: z.string(),
  role: Role.meta({ description: 'the caller’s role in the org' }),
});

export const OrganizationOfCallerList = z.array(OrganizationOfCaller);

export const CreateOrganizationBody = z.strictObject({
  slug: OrganizationSlug,
  name: OrganizationName.optional().meta({ description: 'defaults to the slug' }),
});

export const CreatedOrganization = z.object({
  id: z.string().meta({ pattern: '^org_' }),
  slug: z.string(),
  name: z.string(),
  issuer: z.string().meta({ format: 'uri', description: 'the org’s OpenID issuer' }),
});
