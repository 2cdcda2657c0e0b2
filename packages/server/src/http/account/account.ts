import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { createProfileKey, requireUser, userRecord } from '../../domain/directory/profile.js';
import { authenticateBearer } from '../bearer.js';

/**
 * The signed-in person's own record: GET /users/me and POST /profile/session. Both take user
 * tokens and console tokens alike: they are about the person, not a tenant.
 */
export function accountRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/users/me', async (request, reply) => {
    const { access } = await authenticateBearer(deps, request, ['user', 'console']);
    reply.header('cache-control', 'no-store');
    return userRecord(await requireUser(deps, access.userId));
  });

  app.post('/profile/session', async (request, reply) => {
    const { org, access } = await authenticateBearer(deps, request, ['user', 'console']);
    const key = await createProfileKey(deps, org, access.userId);
    return reply.code(201).header('cache-control', 'no-store').send({ key });
  });
}
