import { ApiError } from '../management/api-schemas.js';
import { CreateUserBody, UpdateUserBody, User, UserList, UsersQuery } from '../management/users-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const ORG = { org: 'the org id (`org_…`) or slug' };
const USER = { ...ORG, id: 'the user id (`usr_…`)' };
const error = (description: string): ResponseSpec => ({ description, schema: ApiError });
const unauthorized = error('no valid console token (`WWW-Authenticate: Bearer`)');
const forbidden = error('`forbidden`: the caller is a member but not an owner of the org');
const noOrg = error('`not_found`: no such org, or the token cannot manage it');
const noUser = error('`not_found`: no such org, or no such user in it');
const invalid = error('`invalid_request`: an unknown field, or a value failing validation (named)');
const PAGED = {
  link: 'RFC 8288 relations first, prev, next, last, keeping `q`; absent when every entry fits on one page',
};

/** An org's users (management API, owners only), from the schemas the routes validate with. */
export const USER_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/organizations/:org/users',
    operationId: 'listUsers',
    summary: 'List or search the org’s users',
    description: 'Any parameter not listed, or given twice, is `invalid_query`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: ORG,
    query: UsersQuery,
    responses: {
      200: { description: 'one page, oldest first', schema: UserList, headers: PAGED },
      400: error('`invalid_query`: unknown or repeated parameter, or value out of range'),
      401: unauthorized,
      403: forbidden,
      404: noOrg,
    },
  },
  {
    method: 'post',
    path: '/organizations/:org/users',
    operationId: 'createUser',
    summary: 'Create a user, with a personal tenant',
    description:
      'As `tessera user create` does. The password is stored as an argon2id hash and never shown. ' +
      'Audited as `user.created` and `tenant.created`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: ORG,
    body: { contentType: 'application/json', schema: CreateUserBody },
    responses: {
      201: { description: 'created', schema: User },
      400: invalid,
      401: unauthorized,
      403: forbidden,
      404: noOrg,
      409: error('`conflict`: the org has a user with this email (in any case)'),
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/users/:id',
    operationId: 'getUser',
    summary: 'One of the org’s users',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: USER,
    responses: {
      200: { description: 'the user', schema: User },
      401: unauthorized,
      403: forbidden,
      404: noUser,
    },
  },
  {
    method: 'patch',
    path: '/organizations/:org/users/:id',
    operationId: 'updateUser',
    summary: 'Rename, disable or enable a user',
    description:
      'Disabling refuses the user’s sign-in on the login page (as a wrong password is refused) and ' +
      'ends every session they have: their refresh tokens are refused and their access tokens no ' +
      'longer work. Audited as `user.updated` (with `previous` and `changes`), and each ended ' +
      'session as `session.deleted`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: USER,
    body: { contentType: 'application/json', schema: UpdateUserBody },
    responses: {
      200: { description: 'the user as it is now', schema: User },
      400: invalid,
      401: unauthorized,
      403: forbidden,
      404: noUser,
    },
  },
  {
    method: 'delete',
    path: '/organizations/:org/users/:id',
    operationId: 'deleteUser',
    summary: 'Delete a user',
    description:
      'Their sessions end (`session.deleted` each), the tenants no one else belongs to are deleted ' +
      '(`tenant.deleted` each), then `user.deleted`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: USER,
    responses: {
      204: { description: 'deleted; no body' },
      401: unauthorized,
      403: forbidden,
      404: noUser,
    },
  },
  {
    method: 'delete',
    path: '/organizations/:org/users/:id/sessions',
    operationId: 'endUserSessions',
    summary: 'Sign a user out everywhere',
    description:
      'Ends every session of the user (each audited as `session.deleted`) and their sign-in on the ' +
      'hosted pages: refresh tokens are refused, access tokens no longer work. The user may sign in again.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: USER,
    responses: {
      204: { description: 'ended; no body' },
      401: unauthorized,
      403: forbidden,
      404: noUser,
    },
  },
];
