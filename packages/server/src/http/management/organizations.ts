import type { z } from 'zod';
import { createOrg, listOrgsOfUser } from '../../domain/directory/index.js';
import { created, endpoint } from './endpoint.js';
import {
  CreatedOrganization,
  CreateOrganizationBody,
  OrganizationOfCallerList,
  OrganizationsQuery,
} from './organizations-schemas.js';
import { apiError, badQuery, jsonRequest, MANAGEMENT, pagedList, unauthorized } from './responses.js';

/**
 * The caller's organizations (any console user, never a service account): GET lists the orgs
 * they are a member of, with their role, paged; POST creates one with the caller as its owner.
 */
export const ORGANIZATION_ENDPOINTS = [
  endpoint(
    {
      ...MANAGEMENT,
      people: true,
      scope: 'org:read',
      who: 'console user',
      method: 'get',
      path: '/organizations',
      operationId: 'listOrganizations',
      summary: 'The orgs the caller is a member of, with their role, by slug',
      query: OrganizationsQuery,
      responses: {
        200: pagedList('one page of orgs', OrganizationOfCallerList),
        400: badQuery,
        401: unauthorized,
      },
    },
    async ({ deps, caller, query, page }) => {
      const found = await listOrgsOfUser(deps, caller.consoleUserId, {
        page: query.page,
        perPage: query.per_page,
      });
      return page(found.entries, found.total);
    },
  ),
  endpoint(
    {
      ...MANAGEMENT,
      people: true,
      scope: 'org:write',
      who: 'console user',
      method: 'post',
      path: '/organizations',
      operationId: 'createOrganization',
      summary: 'Create an org; the caller becomes its owner',
      description:
        'The org gets its own issuer (its slug’s host) and signing keys. Audited in the new org as ' +
        '`organization.created` and `membership.created`.',
      body: jsonRequest(CreateOrganizationBody),
      responses: {
        201: { description: 'created', schema: CreatedOrganization },
        400: apiError(
          '`invalid_request`: an unknown field, a slug or name failing validation, or a reserved slug',
        ),
        401: unauthorized,
        409: apiError('`conflict`: an org with this slug exists'),
        429: {
          ...apiError('`rate_limited`: the caller created its hourly allowance of organizations already'),
          headers: { 'retry-after': 'seconds until the caller may create an organization again' },
        },
      },
    },
    async ({ deps, caller, body: input }) => {
      const { org, issuer } = await createOrg(
        deps,
        { slug: input.slug, name: input.name ?? null, ownerId: caller.consoleUserId },
        caller.actor,
      );
      const body: z.output<typeof CreatedOrganization> = {
        id: org.id,
        slug: org.slug,
        name: org.name,
        issuer,
      };
      return created(body);
    },
  ),
];
