import { getUserRoles, setRolesOfUser } from '../../domain/resources/index.js';
import { managementInput } from './api-input.js';
import { ownedItems } from './owned-items.js';
import { apiError } from './responses.js';
import { roleView } from './roles.js';
import { SetUserRolesBody, UserRoleList } from './roles-schemas.js';

const users = ownedItems({ collection: 'users', noun: 'user', prefix: 'usr' });

/** The roles one of an org's users holds (owners only; members 403): read, replace. Not paged. */
export const USER_ROLE_ENDPOINTS = [
  users.get(
    {
      operationId: 'getUserRoles',
      summary: 'The roles a user holds',
      at: '/roles',
      schema: UserRoleList,
      answer: 'every role of the user, oldest first (not paged)',
    },
    async (deps, org, id) => ({ data: (await getUserRoles(deps, org, id)).map(roleView) }),
  ),
  users.replace(
    {
      operationId: 'setUserRoles',
      summary: 'Replace the roles a user holds',
      description: 'The user’s next token, a refresh included, carries only the scopes the new roles allow.',
      at: '/roles',
      body: SetUserRolesBody,
      schema: UserRoleList,
      answer: 'the roles the user now holds',
      refusals: {
        400: apiError(
          '`invalid_request`: a value failing validation, or an id that is not a role of the org',
        ),
      },
    },
    async (deps, caller, id, body) => {
      const roles = await managementInput(setRolesOfUser(deps, caller.org, id, body.roles, caller.actor));
      return { data: roles.map(roleView) };
    },
  ),
];
