import type { z } from 'zod';
import { failApi } from '../../domain/errors.js';
import { isoTime } from '../../domain/iso-time.js';
import {
  createApiResource,
  deleteApiResource,
  getApiResource,
  listApiResources,
  updateApiResource,
} from '../../domain/resources/index.js';
import type { ApiResource } from '../../domain/types.js';
import { managementInput } from './api-input.js';

import { ownedItems } from './owned-items.js';
import {
  CreateResourceBody,
  Resource,
  ResourceList,
  ResourcesQuery,
  type Resource as ResourceView,
  UpdateResourceBody,
} from './resources-schemas.js';
import { apiError, listResponses } from './responses.js';

const view = (r: ApiResource): z.output<typeof ResourceView> => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  scopes: r.scopes,
  access_token_ttl: r.accessTokenTtl,
  created_at: isoTime(r.createdAt),
});

const resources = ownedItems({ collection: 'resources', noun: 'resource', prefix: 'api' });

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
  resources.list(
    {
      operationId: 'listResources',
      summary: 'List the org’s API resources',
      query: ResourcesQuery,
      responses: listResponses(ResourceList),
    },
    listApiResources,
    view,
  ),
  resources.create(
    {
      operationId: 'createResource',
      summary: 'Register an API resource (an RFC 8707 resource indicator) with its scopes',
      body: CreateResourceBody,
      schema: Resource,
      answer: 'registered',
      refusals: { 409: apiError('`conflict`: another resource of the org has that identifier') },
    },
    async (deps, caller, body) => {
      const input = {
        identifier: body.identifier,
        name: body.name,
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.access_token_ttl === undefined ? {} : { accessTokenTtl: body.access_token_ttl }),
      };
      return view(await managementInput(createApiResource(deps, caller.org, input, caller.actor)));
    },
  ),
  resources.get(
    { operationId: 'getResource', summary: 'One of the org’s API resources', schema: Resource },
    async (deps, org, id) => view(await getApiResource(deps, org, id)),
  ),
  resources.update(
    {
      operationId: 'updateResource',
      summary: 'Change a resource’s name, scopes or access token lifetime',
      description:
        'Absent fields keep their value; `scopes` replaces the list. A scope removed leaves every role ' +
        'and client permitted it. `identifier` never changes: sending it is `invalid_request`.',
      body: UpdateResourceBody,
      precheck: refuseIdentifier,
      schema: Resource,
    },
    async (deps, caller, id, body) => {
      const changes = {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.access_token_ttl === undefined ? {} : { accessTokenTtl: body.access_token_ttl }),
      };
      return view(await managementInput(updateApiResource(deps, caller.org, id, changes, caller.actor)));
    },
  ),
  resources.remove(
    { operationId: 'deleteResource', summary: 'Delete a resource and every permission naming it' },
    deleteApiResource,
  ),
];
