import type { z } from 'zod';
import { createRole, deleteRole, getRole, listRoles, updateRole } from '../../domain/resources/index.js';
import type { EndUserRole } from '../../domain/types.js';
import { managementInput } from './api-input.js';

import { endpoint } from './endpoint.js';
import {
  apiError,
  badQuery,
  forbidden,
  invalid,
  MANAGEMENT,
  noOrg,
  ORG,
  PAGED,
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
      responses: {
        200: { description: 'one page, oldest first', schema: RoleList, headers: PAGED },
        400: badQuery,
        401: unauthorized,
        403: forbidden,
        404: noOrg,
      },
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
        201: { description: 'created', schema: RoleSchema },
        400: invalid,
        401: unauthorized,
        403: forbidden,
        404: noOrg,
        409: nameTaken,
      },
    },
    async ({ deps, caller, body, reply }) => {
      const role = await managementInput(createRole(deps, caller.org, body, caller.actor));
      return reply.code(201).header('cache-control', 'no-store').send(roleView(role));
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
    async ({ deps, caller, params, reply }) => {
      const role = await getRole(deps, caller.org, params.id);
      return reply.header('cache-control', 'no-store').send(roleView(role));
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
    async ({ deps, caller, params, body, reply }) => {
      const role = await managementInput(updateRole(deps, caller.org, params.id, body, caller.actor));
      return reply.header('cache-control', 'no-store').send(roleView(role));
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
    async ({ deps, caller, params, reply }) => {
      await deleteRole(deps, caller.org, params.id, caller.actor);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  ),
];
