import { membershipOf } from '../../domain/directory/index.js';
import { endpoint, ok } from '../management/endpoint.js';
import { apiError as error, noToken as unauthorized } from '../management/responses.js';
import { OrganizationMembership } from '../openapi/described-schemas.js';

/**
 * GET /organizations/{slug} on the console host: the caller's membership of that org as
 * `{id, slug, role}`, 404 when not a member. Console tokens with `org:read` only.
 */
export const organizationMembership = endpoint(
  {
    method: 'get',
    path: '/organizations/:org',
    operationId: 'organizationMembership',
    summary: 'The caller’s membership of an org',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    who: 'console user',
    people: true,
    scope: 'org:read',
    params: { org: 'the org slug (or `org_…` id)' },
    responses: {
      200: { description: 'the Organization record', schema: OrganizationMembership },
      401: unauthorized,
      404: error('`not_found`: not a member, or no such org'),
    },
  },
  async ({ deps, caller, params }) => {
    return ok(await membershipOf(deps, caller.consoleUserId, params.org));
  },
);
