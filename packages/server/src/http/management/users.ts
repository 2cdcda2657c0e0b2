import type { z } from 'zod';
import type { StandardClaimChanges } from '../../domain/directory/index.js';
import {
  createUser,
  deleteUser,
  endSessionsOfUser,
  listUsers,
  requireOrgUser,
  updateUser,
} from '../../domain/directory/index.js';
import { isoTime } from '../../domain/iso-time.js';
import type { User } from '../../domain/types.js';
import { managementInput, sentFields } from './api-input.js';
import { endpoint } from './endpoint.js';
import { ownedItems } from './owned-items.js';
import { apiError, badQuery, noOrg, ORG, ownersRefusals } from './responses.js';
import {
  CreateUserBody,
  UpdateUserBody,
  UserList,
  User as UserSchema,
  UsersQuery,
  type User as UserView,
} from './users-schemas.js';

const view = (u: User): z.output<typeof UserView> => ({
  id: u.id,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  disabled: u.disabled,
  created_at: isoTime(u.createdAt),
  middle_name: u.middleName,
  nickname: u.nickname,
  preferred_username: u.preferredUsername,
  profile: u.profile,
  picture: u.picture,
  website: u.website,
  gender: u.gender,
  birthdate: u.birthdate,
  zoneinfo: u.zoneinfo,
  locale: u.locale,
  phone_number: u.phoneNumber,
  phone_number_verified: u.phoneNumberVerified,
  address: u.address,
  updated_at: isoTime(u.updatedAt),
});

/** The body's OIDC Core §5.1 fields (snake_case, as the claims are named) under the domain's names. */
const CLAIM_FIELDS = {
  middle_name: 'middleName',
  nickname: 'nickname',
  preferred_username: 'preferredUsername',
  profile: 'profile',
  website: 'website',
  gender: 'gender',
  birthdate: 'birthdate',
  zoneinfo: 'zoneinfo',
  locale: 'locale',
  phone_number: 'phoneNumber',
  phone_number_verified: 'phoneNumberVerified',
  address: 'address',
} as const;

/** The claims the body sent, as the domain's changes (a null sent clears one). */
const claimChanges = (body: z.output<typeof UpdateUserBody>): StandardClaimChanges =>
  sentFields(body, CLAIM_FIELDS);

/** The filters in the order the Link URLs carry them. */
const FILTERS = ['q'] as const;

const users = ownedItems({ collection: 'users', noun: 'user', prefix: 'usr' });

/**
 * An org's users (owners only; members 403): list and search, create (the password is never
 * echoed), read, update (disabling ends their sessions), delete, and end every session of one.
 */
export const USER_ENDPOINTS = [
  endpoint(
    {
      ...users.read,
      method: 'get',
      path: '/organizations/:org/users',
      operationId: 'listUsers',
      summary: 'List or search the org’s users',
      description: 'Any parameter not listed, or given twice, is `invalid_query`.',
      params: ORG,
      query: UsersQuery,
      responses: {
        200: {
          description: 'one page, oldest first',
          schema: UserList,
          headers: {
            link:
              'RFC 8288 relations first, prev, next, last, keeping `q`; absent when every entry fits on one page. ' +
              'A `q` matching more than 10,000 users has no `last` (its matches are not all counted): `next` ' +
              'goes on while a page follows',
          },
        },
        400: badQuery,
        ...ownersRefusals(noOrg),
      },
    },
    async ({ deps, caller, query, page }) => {
      const found = await listUsers(deps, caller.org, {
        q: query.q ?? null,
        page: query.page,
        perPage: query.per_page,
      });
      return page(found.entries.map(view), found.exact ? found.total : { atLeast: found.total }, FILTERS);
    },
  ),
  users.create(
    {
      operationId: 'createUser',
      summary: 'Create a user, with a personal tenant',
      description:
        'As `tessera user create` does. The password is stored as an argon2id hash and never shown. ' +
        'Audited as `user.created` and `tenant.created`.',
      body: CreateUserBody,
      schema: UserSchema,
      refusals: { 409: apiError('`conflict`: the org has a user with this email (in any case)') },
    },
    async (deps, caller, body) => {
      const input = {
        email: body.email,
        password: body.password ?? null,
        firstName: body.first_name ?? null,
        lastName: body.last_name ?? null,
        picture: body.picture ?? null,
        claims: claimChanges(body),
      };
      const { user } = await managementInput(createUser(deps, caller.org, input, caller.actor));
      return view(user);
    },
  ),
  users.get(
    { operationId: 'getUser', summary: 'One of the org’s users', schema: UserSchema },
    async (deps, org, id) => view(await requireOrgUser(deps.store, org, id)),
  ),
  users.update(
    {
      operationId: 'updateUser',
      summary: 'Change a user’s names and profile claims, disable or enable them',
      description:
        'The OIDC Core §5.1 fields: a field left out is kept, null clears it; a new `phone_number` is ' +
        'unverified unless the same request sets `phone_number_verified`. ' +
        'Disabling refuses the user’s sign-in on the login page (as a wrong password is refused) and ' +
        'ends every session they have: their refresh tokens are refused and their access tokens no ' +
        'longer work. Audited as `user.updated` (with `previous` and `changes`), and each ended ' +
        'session as `session.deleted`.',
      body: UpdateUserBody,
      schema: UserSchema,
      answer: 'the user as it is now',
    },
    async (deps, caller, id, body) => {
      const changes = {
        ...sentFields(body, {
          first_name: 'firstName',
          last_name: 'lastName',
          picture: 'picture',
          disabled: 'disabled',
        }),
        claims: claimChanges(body),
      };
      return view(await managementInput(updateUser(deps, caller.org, id, changes, caller.actor)));
    },
  ),
  users.remove(
    {
      operationId: 'deleteUser',
      summary: 'Delete a user',
      description:
        'Their sessions end (`session.deleted` each), the tenants no one else belongs to are deleted ' +
        '(`tenant.deleted` each), then `user.deleted`.',
    },
    deleteUser,
  ),
  users.remove(
    {
      operationId: 'endUserSessions',
      summary: 'Sign a user out everywhere',
      description:
        'Ends every session of the user (each audited as `session.deleted`) and their sign-in on the ' +
        'hosted pages: refresh tokens are refused, access tokens no longer work. The user may sign in again.',
      at: '/sessions',
      answer: 'ended; no body',
    },
    endSessionsOfUser,
  ),
];
