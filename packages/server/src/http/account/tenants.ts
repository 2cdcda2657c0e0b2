import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import { createTenant, deleteTenant, listTenants, updateTenant } from '../../domain/directory/tenants.js';
import { authenticateBearer } from '../bearer.js';
import { jsonBody } from '../management/api-input.js';

export const CreateTenant = z.strictObject({ name: z.string() });
export const UpdateTenant = z.strictObject({
  name: z.string().optional(),
  logo: z.string().nullable().optional(),
});

/** The caller's tenants (user tokens): list, create, rename or re-logo, delete. */
export function tenantRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/tenants', async (request, reply) => {
    const { access } = await authenticateBearer(deps, request, ['user']);
    reply.header('cache-control', 'no-store');
    return listTenants(deps, access.userId);
  });

  app.post('/tenants', async (request, reply) => {
    const { org, access } = await authenticateBearer(deps, request, ['user']);
    const { name } = jsonBody('invalid_body', CreateTenant, request.body);
    return reply.code(201).send(await createTenant(deps, org, access.userId, name));
  });

  app.patch<{ Params: { id: string } }>('/tenants/:id', async (request) => {
    const { org, access } = await authenticateBearer(deps, request, ['user']);
    const input = jsonBody('invalid_body', UpdateTenant, request.body);
    return updateTenant(deps, org, access.userId, request.params.id, input);
  });

  app.delete<{ Params: { id: string } }>('/tenants/:id', async (request, reply) => {
    const { org, access } = await authenticateBearer(deps, request, ['user']);
    await deleteTenant(deps, org, access.userId, request.params.id);
    return reply.code(204).send();
  });
}
