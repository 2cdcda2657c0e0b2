import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  createUser,
  deleteUser,
  endSessionsOfUser,
  listUsers,
  requireOrgUser,
  updateUser,
} from '../../domain/directory/users.js';
import type { User } from '../../domain/types.js';
import { jsonBody } from './api-input.js';
import { ownerCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';
import { CreateUserBody, UpdateUserBody, UsersQuery, type User as UserView } from './users-schemas.js';

const view = (u: User): z.output<typeof UserView> => ({
  id: u.id,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  disabled: u.disabled,
  created_at: new Date(u.createdAt).toISOString(),
});

/** The filters in the order the Link URLs carry them. */
const FILTERS = ['q'] as const;

type OrgParams = { Params: { org: string } };
type UserParams = { Params: { org: string; id: string } };

/**
 * An org's users (owners only; members 403): list and search, create (the password is never
 * echoed), read, update (disabling ends their sessions), delete, and end every session of one.
 */
export function userRoutes(app: FastifyInstance, deps: Deps) {
  app.get<OrgParams>('/organizations/:org/users', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    const list = pagedQuery(deps, UsersQuery, request);
    const { query } = list;
    const page = await listUsers(deps, org, {
      q: query.q ?? null,
      page: query.page,
      perPage: query.per_page,
    });
    const entries = page.entries.map(view);
    return sendPage(deps, request, reply, { ...list, entries, total: page.total }, FILTERS);
  });

  app.post<OrgParams>('/organizations/:org/users', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const body = jsonBody('invalid_request', CreateUserBody, request.body);
    const input = {
      email: body.email,
      password: body.password ?? null,
      firstName: body.first_name ?? null,
      lastName: body.last_name ?? null,
    };
    const { user } = await createUser(deps, org, input, actor);
    return reply.code(201).header('cache-control', 'no-store').send(view(user));
  });

  app.get<UserParams>('/organizations/:org/users/:id', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    const user = await requireOrgUser(deps.db, org, request.params.id);
    return reply.header('cache-control', 'no-store').send(view(user));
  });

  app.patch<UserParams>('/organizations/:org/users/:id', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const body = jsonBody('invalid_request', UpdateUserBody, request.body);
    const changes = {
      ...(body.first_name === undefined ? {} : { firstName: body.first_name }),
      ...(body.last_name === undefined ? {} : { lastName: body.last_name }),
      ...(body.disabled === undefined ? {} : { disabled: body.disabled }),
    };
    const user = await updateUser(deps, org, request.params.id, changes, actor);
    return reply.header('cache-control', 'no-store').send(view(user));
  });

  app.delete<UserParams>('/organizations/:org/users/:id', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    await deleteUser(deps, org, request.params.id, actor);
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  app.delete<UserParams>('/organizations/:org/users/:id/sessions', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    await endSessionsOfUser(deps, org, request.params.id, actor);
    return reply.code(204).header('cache-control', 'no-store').send();
  });
}
