import type { z } from 'zod';
import { isoTime } from '../../domain/iso-time.js';
import { createRole, deleteRole, getRole, listRoles, updateRole } from '../../domain/resources/index.js';
import type { EndUserRole } from '../../domain/types.js';
import { managementInput } from './api-input.js';
import { ownedItems } from './owned-items.js';
import { apiError, listResponses } from './responses.js';
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
  created_at: isoTime(r.createdAt),
});

const roles = ownedItems({ collection: 'roles', noun: 'role', prefix: 'rol' });
const nameTaken = apiError('`conflict`: another role of the org has that name');

/** The roles of an org's end users (owners only; members 403): list, create, read, update, delete. */
export const ROLE_ENDPOINTS = [
  roles.list(
    {
      operationId: 'listRoles',
      summary: 'List the roles of the org’s users',
      query: RolesQuery,
      responses: listResponses(RoleList),
    },
    listRoles,
    roleView,
  ),
  roles.create(
    {
      operationId: 'createRole',
      summary: 'Create a role with permissions (resource scopes)',
      body: CreateRoleBody,
      schema: RoleSchema,
      refusals: { 409: nameTaken },
    },
    async (deps, caller, body) =>
      roleView(await managementInput(createRole(deps, caller.org, body, caller.actor))),
  ),
  roles.get(
    { operationId: 'getRole', summary: 'One of the org’s roles', schema: RoleSchema },
    async (deps, org, id) => roleView(await getRole(deps, org, id)),
  ),
  roles.update(
    {
      operationId: 'updateRole',
      summary: 'Change a role’s name, description or permissions',
      description: 'Absent fields keep their value; `permissions` replaces the list.',
      body: UpdateRoleBody,
      schema: RoleSchema,
      refusals: { 409: nameTaken },
    },
    async (deps, caller, id, body) =>
      roleView(await managementInput(updateRole(deps, caller.org, id, body, caller.actor))),
  ),
  roles.remove({ operationId: 'deleteRole', summary: 'Delete a role; its users lose it' }, deleteRole),
];
