import type { z } from 'zod';
import { createRole, deleteRole, getRole, listRoles, updateRole } from '../../domain/resources/index.js';
import type { EndUserRole } from '../../domain/types.js';
import { managementInput } from './api-input.js';

import { created, endpoint, noContent, ok } from './endpoint.js';
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
import {
  CreateRoleBody,
  RoleList,
  EndUserRole as RoleSchema,
  RolesQuery,
  type EndUserRole as RoleView,
  UpdateRoleBody,
} from './roles-schemas.js';

export const roleView = (r: EndUserRole): z.output<typeof RoleView> => ({
  id: r.id,
  name: r.name,
  description: r.description,
  permissions: r.permissions,
  created_at: new Date(r.createdAt).toISOString(),
});

const ROLE = { ...ORG, id: 'the role id (`rol_…`)' } as const;
const noRole = apiError('`not_found`: no such org, or no such role in it');
const nameTaken = apiError('`conflict`: another role of the org has that name');
const read = { ...MANAGEMENT, scope: 'org:read', who: 'owners' } as const;
const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners' } as const;

/** The roles of an org's end users (owners only; members 403): list, create, read, update, delete. */
export const ROLE_ENDPOINTS = [
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/roles',
      operationId: 'listRoles',
      summary: 'List the roles of the org’s users',
      params: ORG,
      query: RolesQuery,
      responses: listResponses(RoleList),
    },
    async ({ deps, caller, query, page }) => {
      const list = await listRoles(deps, caller.org, { page: query.page, perPage: query.per_page });
      return page(list.entries.map(roleView), list.total);
    },
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/roles',
      operationId: 'createRole',
      summary: 'Create a role with permissions (resource scopes)',
      params: ORG,
      body: { contentType: 'application/json', schema: CreateRoleBody, errors: 'invalid_request' },
      responses: {
        ...createResponses(RoleSchema),
        409: nameTaken,
      },
    },
    async ({ deps, caller, body }) => {
      const role = await managementInput(createRole(deps, caller.org, body, caller.actor));
      return created(roleView(role));
    },
  ),
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/roles/:id',
      operationId: 'getRole',
      summary: 'One of the org’s roles',
      params: ROLE,
      responses: {
        200: { description: 'the role', schema: RoleSchema },
        401: unauthorized,
        403: forbidden,
        404: noRole,
      },
    },
    async ({ deps, caller, params }) => {
      const role = await getRole(deps, caller.org, params.id);
      return ok(roleView(role));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'patch',
      path: '/organizations/:org/roles/:id',
      operationId: 'updateRole',
      summary: 'Change a role’s name, description or permissions',
      description: 'Absent fields keep their value; `permissions` replaces the list.',
      params: ROLE,
      body: { contentType: 'application/json', schema: UpdateRoleBody, errors: 'invalid_request' },
      responses: {
        200: { description: 'the role as updated', schema: RoleSchema },
        400: invalid,
        401: unauthorized,
        403: forbidden,
        404: noRole,
        409: nameTaken,
      },
    },
    async ({ deps, caller, params, body }) => {
      const role = await managementInput(updateRole(deps, caller.org, params.id, body, caller.actor));
      return ok(roleView(role));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'delete',
      path: '/organizations/:org/roles/:id',
      operationId: 'deleteRole',
      summary: 'Delete a role; its users lose it',
      params: ROLE,
      responses: {
        204: { description: 'deleted; no body' },
        401: unauthorized,
        403: forbidden,
        404: noRole,
      },
    },
    async ({ deps, caller, params }) => {
      await deleteRole(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
];
