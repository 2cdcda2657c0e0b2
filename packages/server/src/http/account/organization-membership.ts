import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { membershipOf } from '../../domain/directory/org-membership.js';
import { authenticateBearer } from '../bearer.js';

/**
 * GET /organizations/{slug} on the console host: the caller's membership of that org as
 * `{id, slug, role}`, 404 when not a member. Console tokens only.
 */
export function organizationMembershipRoutes(app: FastifyInstance, deps: Deps) {
  app.get<{ Params: { org: string } }>('/organizations/:org', async (request, reply) => {
    const { org, access } = await authenticateBearer(deps, request, ['console']);
    if (!org.isConsole) return fail('not_found', 'organizations are read on the console host');
    reply.header('cache-control', 'no-store');
    return membershipOf(deps, access.userId, request.params.org);
  });
}
