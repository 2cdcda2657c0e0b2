import { MAX_FILTER_LENGTH } from './filter.js';
import { MAX_PATCH_OPERATIONS } from './patch.js';
import {
  ENTERPRISE_ATTRIBUTES,
  ENTERPRISE_SCHEMA,
  GROUP_SCHEMA,
  type Kind,
  USER_ATTRIBUTES,
  USER_SCHEMA,
} from './resource.js';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

/** What one SCIM request body may weigh (the HTTP layer's body limit). */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

/** RFC 7643 §5: what this service provider supports. */
export function serviceProviderConfig(base: string, maxResults: number) {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: 'https://datatracker.ietf.org/doc/html/rfc7644',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Directory bearer token',
        description: `The directory's token, shown once when it is created or rotated; up to ${MAX_PAYLOAD_BYTES} bytes per body, ${MAX_FILTER_LENGTH} characters per filter, ${MAX_PATCH_OPERATIONS} operations per PATCH.`,
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}ServiceProviderConfig` },
  };
}

/** RFC 7643 §6: User (with the enterprise extension) and Group. */
export function resourceTypes(base: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A user of the organization held by the directory',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A group of the directory; an owner maps it to roles of the organization',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}ResourceTypes/Group` },
    },
  ];
}

interface AttributeDefinition {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: AttributeDefinition[];
  referenceTypes?: string[];
}

function definition(
  name: string,
  kind: Kind,
  overrides: Partial<AttributeDefinition> = {},
): AttributeDefinition {
  const base = {
    name,
    multiValued: false,
    description: `the ${name} attribute (RFC 7643)`,
    required: false,
    caseExact: false,
    mutability: 'readWrite' as const,
    returned: 'default' as const,
    uniqueness: 'none' as const,
  };
  if (kind === 'string' || kind === 'boolean') return { ...base, type: kind, ...overrides };
  const subs = 'sub' in kind ? kind.sub : kind.multi;
  return {
    ...base,
    type: 'complex',
    multiValued: 'multi' in kind,
    subAttributes: Object.entries(subs).map(([n, k]) => definition(n, k)),
    ...overrides,
  };
}

const OVERRIDES: Record<string, Partial<AttributeDefinition>> = {
  userName: { required: true, uniqueness: 'server' },
  externalId: { caseExact: true },
};

/** The User's read-only `groups` (RFC 7643 §4.1.2, as §8.7.1 defines it): kept from the Groups. */
const readOnly = { mutability: 'readOnly' as const };
const USER_GROUPS: AttributeDefinition = definition(
  'groups',
  { multi: {} },
  {
    ...readOnly,
    description: 'The groups of the directory the user is a member of (change them through /Groups)',
    subAttributes: [
      definition('value', 'string', { ...readOnly, description: 'The group’s id' }),
      {
        ...definition('$ref', 'string', { ...readOnly, caseExact: true, description: 'The group’s URI' }),
        type: 'reference',
        referenceTypes: ['Group'],
      },
      definition('display', 'string', { ...readOnly, description: 'The group’s displayName' }),
    ],
  },
);

/** RFC 7643 §7: the schemas of the attributes this service provider keeps. */
export function schemas(base: string) {
  const meta = (id: string) => ({ resourceType: 'Schema', location: `${base}Schemas/${id}` });
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'User Account',
      attributes: [
        ...Object.entries(USER_ATTRIBUTES).map(([n, k]) => definition(n, k, OVERRIDES[n])),
        USER_GROUPS,
      ],
      meta: meta(USER_SCHEMA),
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: ENTERPRISE_SCHEMA,
      name: 'EnterpriseUser',
      description: 'Enterprise User',
      attributes: Object.entries(ENTERPRISE_ATTRIBUTES).map(([n, k]) => definition(n, k)),
      meta: meta(ENTERPRISE_SCHEMA),
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'Group',
      attributes: [
        definition('displayName', 'string', { required: true }),
        definition('externalId', 'string', { caseExact: true }),
        definition('members', { multi: { value: 'string', display: 'string', type: 'string' } }),
      ],
      meta: meta(GROUP_SCHEMA),
    },
  ];
}
