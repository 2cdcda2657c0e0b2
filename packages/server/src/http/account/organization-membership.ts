import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { membershipOf } from '../../domain/directory/org-membership.js';
import { consoleCaller } from '../management/owner-caller.js';

/**
 * GET /organizations/{slug} on the console host: the caller's membership of that org as
 * `{id, slug, role}`, 404 when not a member. Console tokens with `org:read` only.
 */
export function organizationMembershipRoutes(app: FastifyInstance, deps: Deps) {
  app.get<{ Params: { org: string } }>('/organizations/:org', async (request, reply) => {
    const { consoleUserId } = await consoleCaller(deps, request, 'org:read');
    reply.header('cache-control', 'no-store');
    return membershipOf(deps, consoleUserId, request.params.org);
  });
}
