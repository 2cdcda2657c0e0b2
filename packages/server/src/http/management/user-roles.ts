import { getUserRoles, setRolesOfUser } from '../../domain/resources/index.js';
import { managementInput } from './api-input.js';

import { endpoint, ok } from './endpoint.js';
import { apiError, forbidden, MANAGEMENT, ORG, unauthorized } from './responses.js';
import { roleView } from './roles.js';
import { SetUserRolesBody, UserRoleList } from './roles-schemas.js';

const USER = { ...ORG, id: 'the user id (`usr_…`)' } as const;
const noUser = apiError('`not_found`: no such org, or no such user in it');

/** The roles one of an org's users holds (owners only; members 403): read, replace. Not paged. */
export const USER_ROLE_ENDPOINTS = [
  endpoint(
    {
      ...MANAGEMENT,
      scope: 'org:read',
      who: 'owners',
      method: 'get',
      path: '/organizations/:org/users/:id/roles',
      operationId: 'getUserRoles',
      summary: 'The roles a user holds',
      params: USER,
      responses: {
        200: { description: 'every role of the user, oldest first (not paged)', schema: UserRoleList },
        401: unauthorized,
        403: forbidden,
        404: noUser,
      },
    },
    async ({ deps, caller, params }) => {
      const roles = await getUserRoles(deps, caller.org, params.id);
      return ok({ data: roles.map(roleView) });
    },
  ),
  endpoint(
    {
      ...MANAGEMENT,
      scope: 'org:write',
      who: 'owners',
      method: 'put',
      path: '/organizations/:org/users/:id/roles',
      operationId: 'setUserRoles',
      summary: 'Replace the roles a user holds',
      description: 'The user’s next token, a refresh included, carries only the scopes the new roles allow.',
      params: USER,
      body: { contentType: 'application/json', schema: SetUserRolesBody, errors: 'invalid_request' },
      responses: {
        200: { description: 'the roles the user now holds', schema: UserRoleList },
        400: apiError(
          '`invalid_request`: a value failing validation, or an id that is not a role of the org',
        ),
        401: unauthorized,
        403: forbidden,
        404: noUser,
      },
    },
    async ({ deps, caller, params, body }) => {
      const roles = await managementInput(
        setRolesOfUser(deps, caller.org, params.id, body.roles, caller.actor),
      );
      return ok({ data: roles.map(roleView) });
    },
  ),
];
