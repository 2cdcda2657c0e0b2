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

/** A catalogue the service provider publishes (RFC 7644 §4): all of it as a ListResponse, or one entry by id. */
function catalogue(c: {
  path: string;
  entries: (base: string) => { id: string }[];
  all: { operationId: string; summary: string; body: string };
  one: { operationId: string; summary: string; id: string; body: string; notFound: string };
}) {
  const one = (ctx: ScimContext): Record<string, unknown> =>
    c.entries(base(ctx)).find((r) => r.id === idOf(ctx)) ??
    fail('scim.schema.not_found', `no schema or resource type ${idOf(ctx)}`);
  return [
    operation(
      {
        ...common,
        path: c.path,
        operationId: c.all.operationId,
        summary: c.all.summary,
        responses: { 200: scimBody(c.all.body), ...SCIM_ERRORS },
      },
      scimRoute(async (ctx) => ({ status: 200, body: list(c.entries(base(ctx))) })),
    ),
    operation(
      {
        ...common,
        path: `${c.path}/:id`,
        operationId: c.one.operationId,
        summary: c.one.summary,
        params: { id: c.one.id },
        responses: { 200: scimBody(c.one.body), ...SCIM_ERRORS, 404: scimBody(c.one.notFound) },
      },
      scimRoute(async (ctx) => ({ status: 200, body: one(ctx) })),
    ),
  ];
}

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
  ...catalogue({
    path: '/scim/v2/ResourceTypes',
    entries: resourceTypes,
    all: {
      operationId: 'scimResourceTypes',
      summary: 'SCIM: the resource types (RFC 7643 §6)',
      body: 'a ListResponse of ResourceType',
    },
    one: {
      operationId: 'scimResourceType',
      summary: 'SCIM: one resource type (`User`, `Group`)',
      id: '`User` or `Group`',
      body: 'the ResourceType',
      notFound: 'no such resource type',
    },
  }),
  ...catalogue({
    path: '/scim/v2/Schemas',
    entries: schemas,
    all: {
      operationId: 'scimSchemas',
      summary: 'SCIM: the schemas of the attributes kept (RFC 7643 §7)',
      body: 'a ListResponse of Schema',
    },
    one: {
      operationId: 'scimSchema',
      summary: 'SCIM: one schema, by its URN',
      id: 'the schema URN',
      body: 'the Schema',
      notFound: 'no such schema',
    },
  }),
];
