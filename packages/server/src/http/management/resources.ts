import type { z } from 'zod';
import { failApi } from '../../domain/errors.js';
import {
  createApiResource,
  deleteApiResource,
  getApiResource,
  listApiResources,
  updateApiResource,
} from '../../domain/resources/index.js';
import type { ApiResource } from '../../domain/types.js';
import { managementInput } from './api-input.js';

import { created, endpoint, noContent, ok } from './endpoint.js';
import {
  CreateResourceBody,
  Resource,
  ResourceList,
  ResourcesQuery,
  type Resource as ResourceView,
  UpdateResourceBody,
} from './resources-schemas.js';
import {
  apiError,
  createResponses,
  forbidden,
  invalid,
  listResponses,
  MANAGEMENT,
  ORG,
  unauthorized,
} from './responses.js';

const view = (r: ApiResource): z.output<typeof ResourceView> => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  scopes: r.scopes,
  access_token_ttl: r.accessTokenTtl,
  created_at: new Date(r.createdAt).toISOString(),
});

const RESOURCE = { ...ORG, id: 'the resource id (`api_…`)' } as const;
const noResource = apiError('`not_found`: no such org, or no such resource in it');
const read = { ...MANAGEMENT, scope: 'org:read', who: 'owners' } as const;
const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners' } as const;

/** `identifier` never changes: sending it is refused in words, not as an unknown field. */
function refuseIdentifier(raw: unknown): void {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && Object.hasOwn(raw, 'identifier')) {
    failApi(
      'resource.identifier.immutable',
      'identifier: cannot be changed; register a new resource instead',
    );
  }
}

/** An org's API resources (DESIGN §15; owners only, members 403): list, create, read, update, delete. */
export const RESOURCE_ENDPOINTS = [
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/resources',
      operationId: 'listResources',
      summary: 'List the org’s API resources',
      params: ORG,
      query: ResourcesQuery,
      responses: listResponses(ResourceList),
    },
    async ({ deps, caller, query, page }) => {
      const list = await listApiResources(deps, caller.org, { page: query.page, perPage: query.per_page });
      return page(list.entries.map(view), list.total);
    },
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/resources',
      operationId: 'createResource',
      summary: 'Register an API resource (an RFC 8707 resource indicator) with its scopes',
      params: ORG,
      body: { contentType: 'application/json', schema: CreateResourceBody, errors: 'invalid_request' },
      responses: {
        ...createResponses(Resource, 'registered'),
        409: apiError('`conflict`: another resource of the org has that identifier'),
      },
    },
    async ({ deps, caller, body }) => {
      const input = {
        identifier: body.identifier,
        name: body.name,
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.access_token_ttl === undefined ? {} : { accessTokenTtl: body.access_token_ttl }),
      };
      const resource = await managementInput(createApiResource(deps, caller.org, input, caller.actor));
      return created(view(resource));
    },
  ),
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/resources/:id',
      operationId: 'getResource',
      summary: 'One of the org’s API resources',
      params: RESOURCE,
      responses: {
        200: { description: 'the resource', schema: Resource },
        401: unauthorized,
        403: forbidden,
        404: noResource,
      },
    },
    async ({ deps, caller, params }) => {
      const resource = await getApiResource(deps, caller.org, params.id);
      return ok(view(resource));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'patch',
      path: '/organizations/:org/resources/:id',
      operationId: 'updateResource',
      summary: 'Change a resource’s name, scopes or access token lifetime',
      description:
        'Absent fields keep their value; `scopes` replaces the list. A scope removed leaves every role ' +
        'and client permitted it. `identifier` never changes: sending it is `invalid_request`.',
      params: RESOURCE,
      body: {
        contentType: 'application/json',
        schema: UpdateResourceBody,
        errors: 'invalid_request',
        precheck: refuseIdentifier,
      },
      responses: {
        200: { description: 'the resource as updated', schema: Resource },
        400: invalid,
        401: unauthorized,
        403: forbidden,
        404: noResource,
      },
    },
    async ({ deps, caller, params, body }) => {
      const changes = {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.access_token_ttl === undefined ? {} : { accessTokenTtl: body.access_token_ttl }),
      };
      const resource = await managementInput(
        updateApiResource(deps, caller.org, params.id, changes, caller.actor),
      );
      return ok(view(resource));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'delete',
      path: '/organizations/:org/resources/:id',
      operationId: 'deleteResource',
      summary: 'Delete a resource and every permission naming it',
      params: RESOURCE,
      responses: {
        204: { description: 'deleted; no body' },
        401: unauthorized,
        403: forbidden,
        404: noResource,
      },
    },
    async ({ deps, caller, params }) => {
      await deleteApiResource(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
];
