import { z } from 'zod';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt } from './instant-fields.js';

/**
 * /organizations/{org}/roles, a user's roles and a client's permissions (DESIGN §15): the bodies
 * the routes validate with and the responses they send; the OpenAPI document is generated from them.
 */

export const Permission = z.strictObject({
  resource: z.string().max(2000).meta({ description: 'the identifier of a resource of the org' }),
  scope: z.string().max(64).meta({ description: 'one of that resource’s scopes' }),
});

const Permissions = z.array(Permission).max(500, 'must hold at most 500 permissions').meta({
  description: 'each names a registered resource of the org and one of its scopes; duplicates are dropped',
});

const RoleName = z
  .string()
  .trim()
  .min(1, 'must be 1-64 characters')
  .max(64, 'must be 1-64 characters')
  .meta({ description: 'unique in the org' });

const RoleDescription = z.string().trim().max(200, 'must be 0-200 characters');

export const CreateRoleBody = z.strictObject({
  name: RoleName,
  description: RoleDescription.optional().meta({ description: 'default empty' }),
  permissions: Permissions.optional().meta({ description: 'default none' }),
});

export const UpdateRoleBody = z.strictObject({
  name: RoleName.optional(),
  description: RoleDescription.optional(),
  permissions: Permissions.optional().meta({ description: 'replaces the role’s permissions' }),
});

export const RolesQuery = z.strictObject({ ...PAGE_FIELDS });

export const EndUserRole = z.object({
  id: z.string().meta({ pattern: '^rol_' }),
  name: z.string(),
  description: z.string(),
  permissions: z.array(z.object({ resource: z.string(), scope: z.string() })),
  created_at: CreatedAt,
});

/** A page of roles: a bare array like every paged list (Link and total in headers). */
export const RoleList = z.array(EndUserRole);

/** A user's roles (not paged): `{data}` like a client's permissions. */
export const UserRoleList = z.object({ data: z.array(EndUserRole) });

export const SetUserRolesBody = z.strictObject({
  roles: z
    .array(z.string().max(100))
    .max(100, 'must hold at most 100 roles')
    .meta({ description: 'the role ids (`rol_…`) the user holds from now on; duplicates are dropped' }),
});

export const SetClientPermissionsBody = z.strictObject({ permissions: Permissions });

export const PermissionList = z.object({
  data: z.array(z.object({ resource: z.string(), scope: z.string() })),
});
