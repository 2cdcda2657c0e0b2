import { z } from 'zod';
import {
  ACCESS_TOKEN_TTL,
  MAX_SCOPE_DESCRIPTION,
  resourceIdentifierProblem,
  scopeNameProblem,
} from '../../domain/resources/index.js';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt } from './instant-fields.js';
import { givenName } from './name-schemas.js';

/**
 * /organizations/{org}/resources (DESIGN §15): the bodies the routes validate with and the
 * responses they send, declared once; the OpenAPI document is generated from the same objects.
 */

const ResourceIdentifier = z
  .string()
  .superRefine((value, issues) => {
    const problem = resourceIdentifierProblem(value);
    if (problem !== null) issues.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description:
      'the RFC 8707 resource indicator: an absolute https URI without a fragment (http only on ' +
      'loopback); unique in the org; never changes',
  });

const ResourceName = givenName('shown to people on the consent page');

const ScopeName = z.string().superRefine((value, issues) => {
  const problem = scopeNameProblem(value);
  if (problem !== null) issues.addIssue({ code: 'custom', message: problem });
});

export const ResourceScope = z.strictObject({
  name: ScopeName.meta({
    description: '`[a-z0-9:._-]{1,64}`; never an identity scope nor a management scope',
  }),
  description: z
    .string()
    .trim()
    .min(1, `must be 1-${MAX_SCOPE_DESCRIPTION} characters`)
    .max(MAX_SCOPE_DESCRIPTION, `must be 1-${MAX_SCOPE_DESCRIPTION} characters`)
    .meta({ description: 'what the scope allows, in the words the consent page shows' }),
});

const Scopes = z
  .array(ResourceScope)
  .max(100, 'must hold at most 100 scopes')
  .superRefine((scopes, issues) => {
    const seen = new Set<string>();
    scopes.forEach((s, i) => {
      if (seen.has(s.name)) {
        issues.addIssue({ code: 'custom', path: [i, 'name'], message: `"${s.name}" is given twice` });
      }
      seen.add(s.name);
    });
  })
  .meta({ description: 'the resource’s scopes; names unique within the resource' });

const AccessTokenTtl = z
  .number()
  .int('must be a whole number of seconds')
  .min(ACCESS_TOKEN_TTL.min, `must be ${ACCESS_TOKEN_TTL.min}-${ACCESS_TOKEN_TTL.max} seconds`)
  .max(ACCESS_TOKEN_TTL.max, `must be ${ACCESS_TOKEN_TTL.min}-${ACCESS_TOKEN_TTL.max} seconds`)
  .meta({ description: 'seconds an access token for this resource lives' });

export const CreateResourceBody = z.strictObject({
  identifier: ResourceIdentifier,
  name: ResourceName,
  scopes: Scopes.optional().meta({ description: 'default: none' }),
  access_token_ttl: AccessTokenTtl.optional().meta({ description: `default ${ACCESS_TOKEN_TTL.default}` }),
});

/** `identifier` is refused by the route with its own words: it never changes. */
export const UpdateResourceBody = z.strictObject({
  name: ResourceName.optional(),
  scopes: Scopes.optional().meta({
    description: 'replaces the scopes; a scope removed leaves every role and client permitted it',
  }),
  access_token_ttl: AccessTokenTtl.optional(),
});

export const ResourcesQuery = z.strictObject({ ...PAGE_FIELDS });

export const Resource = z.object({
  id: z.string().meta({ pattern: '^api_' }),
  identifier: z.string(),
  name: z.string(),
  scopes: z.array(z.object({ name: z.string(), description: z.string() })),
  access_token_ttl: z.number().int(),
  created_at: CreatedAt,
});

/** A page of resources: a bare array like every paged list (Link and total in headers). */
export const ResourceList = z.array(Resource);
