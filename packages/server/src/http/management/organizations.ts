import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import { createOrg, listOrgsOfUser } from '../../domain/directory/orgs.js';
import { jsonBody } from './api-input.js';
import {
  type CreatedOrganization,
  CreateOrganizationBody,
  OrganizationsQuery,
} from './organizations-schemas.js';
import { consoleCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';

/**
 * The caller's organizations (any console user): GET lists the orgs they are a member of, with
 * their role, paged; POST creates one with the caller as its owner.
 */
export function organizationRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/organizations', async (request, reply) => {
    const { consoleUserId } = await consoleCaller(deps, request, 'org:read');
    const list = pagedQuery(deps, OrganizationsQuery, request);
    const page = await listOrgsOfUser(deps, consoleUserId, {
      page: list.query.page,
      perPage: list.query.per_page,
    });
    return sendPage(deps, request, reply, { ...list, ...page });
  });

  app.post('/organizations', async (request, reply) => {
    const { consoleUserId, actor } = await consoleCaller(deps, request, 'org:write');
    const input = jsonBody('invalid_request', CreateOrganizationBody, request.body);
    const { org, issuer } = await createOrg(
      deps,
      { slug: input.slug, name: input.name ?? null, ownerId: consoleUserId },
      actor,
    );
    const body: z.output<typeof CreatedOrganization> = { id: org.id, slug: org.slug, name: org.name, issuer };
    return reply.code(201).header('cache-control', 'no-store').send(body);
  });
}
