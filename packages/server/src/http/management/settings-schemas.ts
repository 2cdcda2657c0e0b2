import { z } from 'zod';
import { OrganizationName } from './organizations-schemas.js';

export const OrganizationSettings = z.object({
  id: z.string().meta({ pattern: '^org_' }),
  slug: z.string(),
  name: z.string(),
  issuer: z.string().meta({ format: 'uri', description: 'the org’s OpenID issuer' }),
  require_mfa: z.boolean().meta({ description: 'every user of the org signs in with a second factor' }),
});

export const UpdateOrganizationSettingsBody = z.strictObject({
  name: OrganizationName.optional(),
  require_mfa: z
    .boolean()
    .optional()
    .meta({ description: 'users without a second factor are sent to enrol at their next sign-in' }),
});
