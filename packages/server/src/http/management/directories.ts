import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  adoptUser,
  createDirectory,
  deleteDirectory,
  type MappedGroup,
  mapGroupToRoles,
  pageOfDirectories,
  pageOfDirectoryGroups,
  requireDirectory,
  rotateDirectoryToken,
  scimBaseUrl,
} from '../../domain/scim/index.js';
import type { Org, ScimDirectory } from '../../domain/types.js';
import {
  AdoptedUser,
  AdoptUserBody,
  CreateDirectoryBody,
  DirectoriesQuery,
  DirectoryGroup,
  DirectoryGroupList,
  DirectoryGroupsQuery,
  DirectoryList,
  DirectoryRecord,
  DirectoryWithToken,
  GroupRolesBody,
} from './directories-schemas.js';
import { created, endpoint, ok } from './endpoint.js';
import { ownedItems } from './owned-items.js';
import { apiError, jsonRequest, listResponses, ownersRefusals } from './responses.js';
import { timestamps } from './times.js';

function view(d: ScimDirectory, deps: Deps, org: Org): z.output<typeof DirectoryRecord> {
  return {
    id: d.id,
    name: d.name,
    connection: d.connectionId,
    scim_base_url: scimBaseUrl(deps, org),
    ...timestamps(d),
  };
}

function groupView(g: MappedGroup): z.output<typeof DirectoryGroup> {
  return {
    id: g.group.id,
    display_name: g.group.displayName,
    external_id: g.group.externalId,
    members: g.memberCount,
    roles: g.roles,
    ...timestamps(g.group),
  };
}

const directories = ownedItems({
  collection: 'directories',
  noun: 'directory',
  prefix: 'dir',
  notFound: apiError('`not_found`: no such org or directory in it, or the token cannot manage it'),
  // Directories hand out credentials that create and delete the org's users: people who own the org only.
  people: true,
});
const { read, write, notFound } = directories;
const ITEM = directories.params;

/**
 * An org's SCIM directories (DESIGN §19; owners only): create (the bearer token is answered once),
 * list, read, rotate the token, delete, and adopt an existing user into a directory.
 */
export const DIRECTORY_ENDPOINTS = [
  directories.create(
    {
      operationId: 'createDirectory',
      summary: 'Add a SCIM directory; its bearer token is in this answer only',
      body: CreateDirectoryBody,
      schema: DirectoryWithToken,
      answer: 'created, with the token (never shown again)',
    },
    async (deps, { org, actor }, body) => {
      const { directory, token } = await createDirectory(
        deps,
        org,
        { name: body.name, connection: body.connection },
        actor,
      );
      return { ...view(directory, deps, org), token };
    },
  ),
  directories.list(
    {
      operationId: 'listDirectories',
      summary: 'List the org’s SCIM directories (never their tokens)',
      query: DirectoriesQuery,
      responses: listResponses(DirectoryList),
    },
    pageOfDirectories,
    view,
  ),
  directories.get(
    { operationId: 'getDirectory', summary: 'One SCIM directory (never its token)', schema: DirectoryRecord },
    async (deps, org, id) => view(await requireDirectory(deps, org, id), deps, org),
  ),
  directories.act(
    {
      operationId: 'rotateDirectoryToken',
      summary: 'Give a SCIM directory a new token; the old one stops working at once',
      at: '/token',
      schema: DirectoryWithToken,
      answer: 'the directory with its new token (never shown again)',
    },
    async (deps, org, id, actor) => {
      const { directory, token } = await rotateDirectoryToken(deps, org, id, actor);
      return { ...view(directory, deps, org), token };
    },
  ),
  directories.remove(
    {
      operationId: 'deleteDirectory',
      summary: 'Delete a SCIM directory; its token stops working, its users stay users of the org',
    },
    deleteDirectory,
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/directories/:id/users',
      operationId: 'adoptDirectoryUser',
      summary: 'Adopt an existing user of the org into a SCIM directory, which then manages them',
      description:
        'A directory never takes over a user it did not create by provisioning their address (that is 409 `uniqueness` at the SCIM API): an owner adopts the user here, and the directory then finds them by their address as userName.',
      params: ITEM,
      body: jsonRequest(AdoptUserBody),
      responses: {
        201: { description: 'adopted', schema: AdoptedUser },
        400: apiError('`invalid_request`: an unknown field, or no `user_id`'),
        ...ownersRefusals(apiError('`not_found`: no such org, directory or user of the org')),
        409: apiError(
          '`conflict`: a directory already holds the user, or this one has their address as a userName',
        ),
      },
    },
    async ({ deps, caller: { org, actor }, params, body }) => {
      const r = await adoptUser(deps, org, params.id, body.user_id, actor);
      return created({ user_id: r.userId, directory_id: r.directoryId, user_name: r.userName });
    },
  ),
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/directories/:id/groups',
      operationId: 'listDirectoryGroups',
      summary: 'List a SCIM directory’s groups, with the roles each maps to',
      params: ITEM,
      query: DirectoryGroupsQuery,
      responses: { ...listResponses(DirectoryGroupList), 404: notFound },
    },
    async ({ deps, caller: { org }, params, query, page }) => {
      const list = await pageOfDirectoryGroups(deps, org, params.id, {
        page: query.page,
        perPage: query.per_page,
      });
      return page(list.entries.map(groupView), list.total);
    },
  ),
  endpoint(
    {
      ...write,
      method: 'put',
      path: '/organizations/:org/directories/:id/groups/:group/roles',
      operationId: 'mapDirectoryGroupRoles',
      summary: 'Map a SCIM directory’s group to org roles: its members gain them, and lose those taken off',
      description:
        'A role a member already held from an owner stays theirs when the group or the mapping goes. Their next token, a refresh included, carries the change.',
      params: { ...ITEM, group: 'the group id (`grp_…`)' },
      body: jsonRequest(GroupRolesBody),
      responses: {
        200: { description: 'the group with its roles', schema: DirectoryGroup },
        400: apiError('`invalid_request`: an unknown field, too many roles, or a role that is not the org’s'),
        ...ownersRefusals(apiError('`not_found`: no such org, directory or group in it')),
      },
    },
    async ({ deps, caller: { org, actor }, params, body }) =>
      ok(groupView(await mapGroupToRoles(deps, org, params.id, params.group, body.roles, actor))),
  ),
];
