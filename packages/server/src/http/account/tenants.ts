import { z } from 'zod';
import { createTenant, deleteTenant, listTenants, updateTenant } from '../../domain/directory/index.js';
import { created, endpoint, noContent, ok } from '../management/endpoint.js';
import { apiError as error, noToken as unauthorized } from '../management/responses.js';
import { TenantRecord, TenantRecordList } from '../openapi/described-schemas.js';

export const CreateTenant = z.strictObject({ name: z.string() });
export const UpdateTenant = z.strictObject({
  name: z.string().optional(),
  logo: z.string().nullable().optional(),
});

/** What the tenant endpoints share: the user's own tenants, with user tokens. */
const TENANTS = { tag: 'tenants', hosts: 'every', auth: 'user' } as const;
const ID = { id: 'the tenant id (`tnt_…`)' };
const NOT_OWNER = {
  403: error('`forbidden`: not an owner of the tenant'),
  404: error('`not_found`: not a tenant of the user'),
};

/** The caller's tenants (user tokens): list, create, rename or re-logo, delete. */
export const TENANT_ENDPOINTS = [
  endpoint(
    {
      method: 'get',
      path: '/tenants',
      operationId: 'listTenants',
      summary: 'The user’s tenants',
      ...TENANTS,
      responses: { 200: { description: 'Tenant records', schema: TenantRecordList }, 401: unauthorized },
    },
    async ({ deps, caller }) => ok(await listTenants(deps, caller.access.userId)),
  ),
  endpoint(
    {
      method: 'post',
      path: '/tenants',
      operationId: 'createTenant',
      summary: 'Create a tenant the user owns',
      ...TENANTS,
      body: { contentType: 'application/json', schema: CreateTenant, errors: 'invalid_body' },
      responses: {
        201: { description: 'the new tenant', schema: TenantRecord },
        400: error('`invalid_body`'),
        401: unauthorized,
      },
    },
    async ({ deps, caller, body }) =>
      created(await createTenant(deps, caller.org, caller.access.userId, body.name)),
  ),
  endpoint(
    {
      method: 'patch',
      path: '/tenants/:id',
      operationId: 'updateTenant',
      summary: 'Rename a tenant or change its logo (owners)',
      ...TENANTS,
      params: ID,
      body: { contentType: 'application/json', schema: UpdateTenant, errors: 'invalid_body' },
      responses: {
        200: { description: 'the tenant', schema: TenantRecord },
        400: error('`invalid_body`'),
        401: unauthorized,
        ...NOT_OWNER,
      },
    },
    async ({ deps, caller, params, body }) =>
      ok(await updateTenant(deps, caller.org, caller.access.userId, params.id, body)),
  ),
  endpoint(
    {
      method: 'delete',
      path: '/tenants/:id',
      operationId: 'deleteTenant',
      summary: 'Delete a tenant (owners; never a user’s last)',
      ...TENANTS,
      params: ID,
      responses: {
        204: { description: 'deleted' },
        401: unauthorized,
        ...NOT_OWNER,
        409: error('`conflict`: a member would be left without a tenant'),
      },
    },
    async ({ deps, caller, params }) => {
      await deleteTenant(deps, caller.org, caller.access.userId, params.id);
      return noContent();
    },
  ),
];
