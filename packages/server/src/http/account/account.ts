import { createProfileKey, requireUser, userRecord } from '../../domain/directory/index.js';
import { created, endpoint, ok } from '../management/endpoint.js';
import { noToken as unauthorized } from '../management/responses.js';
import { ProfileSession, UserRecord } from '../openapi/described-schemas.js';

/**
 * The signed-in person's own record: GET /users/me and POST /profile/session. Both take user
 * tokens and console tokens alike: they are about the person, not a tenant.
 */
const ACCOUNT = { tag: 'account', hosts: 'every', auth: 'user-or-console' } as const;

export const ACCOUNT_ENDPOINTS = [
  endpoint(
    {
      method: 'get',
      path: '/users/me',
      operationId: 'me',
      summary: 'The signed-in user’s record',
      ...ACCOUNT,
      responses: { 200: { description: 'the User record', schema: UserRecord }, 401: unauthorized },
    },
    async ({ deps, caller }) => ok(userRecord(await requireUser(deps, caller.access.userId))),
  ),
  endpoint(
    {
      method: 'post',
      path: '/profile/session',
      operationId: 'profileSession',
      summary: 'A short-lived key that opens the hosted profile page',
      ...ACCOUNT,
      responses: { 201: { description: 'the key', schema: ProfileSession }, 401: unauthorized },
    },
    async ({ deps, caller }) => {
      const key = await createProfileKey(deps, caller.org, caller.access.userId);
      return created({ key });
    },
  ),
];
