import { fail } from '../../domain/errors.js';
import {
  LIST_SCHEMA,
  MAX_RESULTS,
  resourceTypes,
  schemas,
  scimBaseUrl,
  serviceProviderConfig,
} from '../../domain/scim/index.js';
import { operation } from '../served-operation.js';
import { idOf, SCIM_ERRORS, type ScimContext, scimBody, scimRoute } from './scim-route.js';

const common = { tag: 'scim', hosts: 'every', auth: 'scim', method: 'get' } as const;
const base = (ctx: ScimContext) => scimBaseUrl(ctx.deps, ctx.caller.org);
const list = (resources: object[]) => ({
  schemas: [LIST_SCHEMA],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});
const one = <T extends { id: string }>(all: T[], id: string): Record<string, unknown> =>
  (all.find((r) => r.id === id) as Record<string, unknown> | undefined) ??
  fail('scim.schema.not_found', `no schema or resource type ${id}`);

/** RFC 7644 §4: what the service provider supports, its resource types and their schemas. */
export const SCIM_DISCOVERY_OPERATIONS = [
  operation(
    {
      ...common,
      path: '/scim/v2/ServiceProviderConfig',
      operationId: 'scimServiceProviderConfig',
      summary: 'SCIM: what this service provider supports (RFC 7643 §5)',
      responses: { 200: scimBody('the ServiceProviderConfig'), ...SCIM_ERRORS },
    },
    scimRoute(async (ctx) => ({ status: 200, body: serviceProviderConfig(base(ctx), MAX_RESULTS) })),
  ),
  operation(
    {
      ...common,
      path: '/scim/v2/ResourceTypes',
      operationId: 'scimResourceTypes',
      summary: 'SCIM: the resource types (RFC 7643 §6)',
      responses: { 200: scimBody('a ListResponse of ResourceType'), ...SCIM_ERRORS },
    },
    scimRoute(async (ctx) => ({ status: 200, body: list(resourceTypes(base(ctx))) })),
  ),
  operation(
    {
      ...common,
      path: '/scim/v2/ResourceTypes/:id',
      operationId: 'scimResourceType',
      summary: 'SCIM: one resource type (`User`, `Group`)',
      params: { id: '`User` or `Group`' },
      responses: {
        200: scimBody('the ResourceType'),
        ...SCIM_ERRORS,
        404: scimBody('no such resource type'),
      },
    },
    scimRoute(async (ctx) => ({ status: 200, body: one(resourceTypes(base(ctx)), idOf(ctx)) })),
  ),
  operation(
    {
      ...common,
      path: '/scim/v2/Schemas',
      operationId: 'scimSchemas',
      summary: 'SCIM: the schemas of the attributes kept (RFC 7643 §7)',
      responses: { 200: scimBody('a ListResponse of Schema'), ...SCIM_ERRORS },
    },
    scimRoute(async (ctx) => ({ status: 200, body: list(schemas(base(ctx))) })),
  ),
  operation(
    {
      ...common,
      path: '/scim/v2/Schemas/:id',
      operationId: 'scimSchema',
      summary: 'SCIM: one schema, by its URN',
      params: { id: 'the schema URN' },
      responses: { 200: scimBody('the Schema'), ...SCIM_ERRORS, 404: scimBody('no such schema') },
    },
    scimRoute(async (ctx) => ({ status: 200, body: one(schemas(base(ctx)), idOf(ctx)) })),
  ),
];
