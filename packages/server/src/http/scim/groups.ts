import {
  attributeList,
  createScimGroup,
  deleteScimGroup,
  etagOf,
  getScimGroup,
  groupRepresentation,
  listScimGroups,
  MAX_RESULTS,
  patchScimGroup,
  replaceScimGroup,
  type ScimGroupView,
  scimBaseUrl,
} from '../../domain/scim/index.js';
import { operation } from '../served-operation.js';
import {
  idOf,
  ifMatch,
  listAnswer,
  oneQueryValue,
  pageOf,
  SCIM_ERRORS,
  type ScimContext,
  scimBody,
  scimRoute,
  shaped,
} from './scim-route.js';

const ID = { id: 'the group id (`grp_…`)' } as const;
const common = { tag: 'scim', hosts: 'every', auth: 'scim' } as const;
const ETAG = { etag: 'the version of the group (`W/"<n>"`), for If-Match' };
const notFound = scimBody('no such group in this directory');
const invalid = scimBody(
  'not a Group resource, or a member that is not a user of this directory (`scimType` invalidSyntax, invalidValue)',
);
const preconditionFailed = scimBody('If-Match names a version the group no longer has');
const tooLarge = scimBody('the body is larger than the maxPayloadSize of ServiceProviderConfig');

const answerOf = (ctx: ScimContext, v: ScimGroupView, status: 200 | 201 = 200) => ({
  status,
  body: shaped(ctx, groupRepresentation(ctx.deps, ctx.caller.org, v)),
  etag: etagOf(v.group.version),
});

/** The SCIM 2.0 Groups endpoint of the org (RFC 7644 §3), for the directory of the bearer token. */
export const SCIM_GROUP_OPERATIONS = [
  operation(
    {
      ...common,
      method: 'post',
      path: '/scim/v2/Groups',
      operationId: 'scimCreateGroup',
      summary: 'SCIM: create a group (RFC 7644 §3.3); members must be users of the directory',
      responses: {
        201: scimBody('the Group resource as stored', { ...ETAG, location: 'the resource’s URL' }),
        400: invalid,
        ...SCIM_ERRORS,
        413: tooLarge,
      },
    },
    scimRoute(async (ctx) => {
      const v = await createScimGroup(ctx.deps, ctx.caller, ctx.request.body);
      return {
        ...answerOf(ctx, v, 201),
        location: `${scimBaseUrl(ctx.deps, ctx.caller.org)}Groups/${v.group.id}`,
      };
    }),
  ),
  operation(
    {
      ...common,
      method: 'get',
      path: '/scim/v2/Groups',
      operationId: 'scimListGroups',
      summary: 'SCIM: list or search the directory’s groups (RFC 7644 §3.4.2)',
      description: `\`filter\`, \`startIndex\`, \`count\` (at most ${MAX_RESULTS}), \`attributes\`, \`excludedAttributes\` (\`excludedAttributes=members\` reads no members).`,
      responses: {
        200: scimBody('a ListResponse'),
        400: scimBody(
          '`invalidFilter`: the filter does not parse, or is too long or too deep; `tooMany`: a filter no index serves, on a directory of more than 20,000 groups; or a bad startIndex, count or attribute list',
        ),
        ...SCIM_ERRORS,
      },
    },
    scimRoute(async (ctx) => {
      const { startIndex, count } = pageOf(ctx);
      const excluded = attributeList(oneQueryValue(ctx.request, 'excludedAttributes')) ?? [];
      const list = await listScimGroups(ctx.deps, ctx.caller, {
        filter: oneQueryValue(ctx.request, 'filter'),
        startIndex,
        count,
        withMembers: !excluded.some((a) => a.toLowerCase() === 'members'),
      });
      return listAnswer(ctx, startIndex, list);
    }),
  ),
  operation(
    {
      ...common,
      method: 'get',
      path: '/scim/v2/Groups/:id',
      operationId: 'scimGetGroup',
      summary: 'SCIM: one group (RFC 7644 §3.4.1)',
      params: ID,
      responses: {
        200: scimBody('the Group resource', ETAG),
        400: scimBody('attributes or excludedAttributes is not a list of attribute paths'),
        ...SCIM_ERRORS,
        404: notFound,
      },
    },
    scimRoute(async (ctx) => answerOf(ctx, await getScimGroup(ctx.deps, ctx.caller, idOf(ctx)))),
  ),
  operation(
    {
      ...common,
      method: 'put',
      path: '/scim/v2/Groups/:id',
      operationId: 'scimReplaceGroup',
      summary: 'SCIM: replace a group (RFC 7644 §3.5.1); members’ roles follow its mapping',
      params: ID,
      responses: {
        200: scimBody('the Group resource as stored', ETAG),
        400: invalid,
        ...SCIM_ERRORS,
        404: notFound,
        412: preconditionFailed,
        413: tooLarge,
      },
    },
    scimRoute(async (ctx) =>
      answerOf(ctx, await replaceScimGroup(ctx.deps, ctx.caller, idOf(ctx), ctx.request.body, ifMatch(ctx))),
    ),
  ),
  operation(
    {
      ...common,
      method: 'patch',
      path: '/scim/v2/Groups/:id',
      operationId: 'scimPatchGroup',
      summary: 'SCIM: change a group (RFC 7644 §3.5.2): displayName, members added or removed',
      description:
        'Members are added with `add` on `members`, removed with `remove` on `members[value eq "…"]` or on `members` with a value list (Microsoft Entra), or replaced. Members’ roles follow the group’s mapping.',
      params: ID,
      responses: {
        200: scimBody('the Group resource as stored', ETAG),
        400: scimBody(
          'not a PatchOp message, a bad path, nothing at the path, or a member that is not a user of this directory',
        ),
        ...SCIM_ERRORS,
        404: notFound,
        412: preconditionFailed,
        413: tooLarge,
      },
    },
    scimRoute(async (ctx) =>
      answerOf(ctx, await patchScimGroup(ctx.deps, ctx.caller, idOf(ctx), ctx.request.body, ifMatch(ctx))),
    ),
  ),
  operation(
    {
      ...common,
      method: 'delete',
      path: '/scim/v2/Groups/:id',
      operationId: 'scimDeleteGroup',
      summary: 'SCIM: delete a group (RFC 7644 §3.6); its members lose the roles it gave',
      params: ID,
      responses: { 204: { description: 'deleted' }, ...SCIM_ERRORS, 404: notFound, 412: preconditionFailed },
    },
    scimRoute(async (ctx) => {
      await deleteScimGroup(ctx.deps, ctx.caller, idOf(ctx), ifMatch(ctx));
      return { status: 204 };
    }),
  ),
];
