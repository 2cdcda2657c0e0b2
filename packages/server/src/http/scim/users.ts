import {
  createScimUser,
  deleteScimUser,
  etagOf,
  getScimUser,
  listScimUsers,
  MAX_RESULTS,
  patchScimUser,
  replaceScimUser,
  type ScimUser,
  scimBaseUrl,
  userRepresentation,
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

const ID = { id: 'the user id (`usr_…`)' } as const;
const common = { tag: 'scim', hosts: 'every', auth: 'scim' } as const;
const ETAG = { etag: 'the version of the resource (`W/"<n>"`), for If-Match' };
const notFound = scimBody('no such user in this directory (another directory’s or org’s user included)');
const invalid = scimBody(
  'a body that is not a User resource, or a value of the wrong type (`scimType` invalidSyntax, invalidValue; an address outside the domains of the directory’s connection is invalidValue)',
);
const preconditionFailed = scimBody('If-Match names a version the user no longer has');
const tooLarge = scimBody('the body is larger than the maxPayloadSize of ServiceProviderConfig');

const answerOf = (ctx: ScimContext, u: ScimUser, status: 200 | 201 = 200) => ({
  status,
  body: shaped(ctx, userRepresentation(ctx.deps, ctx.caller.org, u)),
  etag: etagOf(u.record.version),
});

/**
 * The SCIM 2.0 Users endpoint of the org (RFC 7644 §3, DESIGN §19), for the directory whose bearer
 * token the request carries: create, read, list with `filter`, replace, patch, delete.
 */
export const SCIM_USER_OPERATIONS = [
  operation(
    {
      ...common,
      method: 'post',
      path: '/scim/v2/Users',
      operationId: 'scimCreateUser',
      summary: 'SCIM: provision a user (RFC 7644 §3.3)',
      description:
        'The user becomes a user of the org held by the directory, their address verified by it. An address another user of the org has (one this directory did not create) is 409 `uniqueness` until an owner adopts that user into the directory.',
      responses: {
        201: scimBody('the User resource as stored', { ...ETAG, location: 'the resource’s URL' }),
        400: invalid,
        ...SCIM_ERRORS,
        409: scimBody(
          '`uniqueness`: the userName or address is taken (in the directory, or by another user of the org)',
        ),
        413: tooLarge,
      },
    },
    scimRoute(async (ctx) => {
      const u = await createScimUser(ctx.deps, ctx.caller, ctx.request.body);
      return {
        ...answerOf(ctx, u, 201),
        location: `${scimBaseUrl(ctx.deps, ctx.caller.org)}Users/${u.user.id}`,
      };
    }),
  ),
  operation(
    {
      ...common,
      method: 'get',
      path: '/scim/v2/Users',
      operationId: 'scimListUsers',
      summary: 'SCIM: list or search the directory’s users (RFC 7644 §3.4.2)',
      description: `\`filter\` (RFC 7644 §3.4.2.2: and, or, not, eq, ne, co, sw, ew, pr, gt, ge, lt, le, value paths), \`startIndex\` (1-based), \`count\` (at most ${MAX_RESULTS}), \`attributes\`, \`excludedAttributes\`. In creation order.`,
      responses: {
        200: scimBody('a ListResponse'),
        400: scimBody(
          '`invalidFilter`: the filter does not parse, or is too long or too deep; `tooMany`: a filter no index serves, on a directory of more than 20,000 users; or a bad startIndex, count or attribute list',
        ),
        ...SCIM_ERRORS,
      },
    },
    scimRoute(async (ctx) => {
      const { startIndex, count } = pageOf(ctx);
      const list = await listScimUsers(ctx.deps, ctx.caller, {
        filter: oneQueryValue(ctx.request, 'filter'),
        startIndex,
        count,
      });
      return listAnswer(ctx, startIndex, list);
    }),
  ),
  operation(
    {
      ...common,
      method: 'get',
      path: '/scim/v2/Users/:id',
      operationId: 'scimGetUser',
      summary: 'SCIM: one user (RFC 7644 §3.4.1)',
      params: ID,
      responses: {
        200: scimBody('the User resource', ETAG),
        400: scimBody('attributes or excludedAttributes is not a list of attribute paths'),
        ...SCIM_ERRORS,
        404: notFound,
      },
    },
    scimRoute(async (ctx) => answerOf(ctx, await getScimUser(ctx.deps, ctx.caller, idOf(ctx)))),
  ),
  operation(
    {
      ...common,
      method: 'put',
      path: '/scim/v2/Users/:id',
      operationId: 'scimReplaceUser',
      summary: 'SCIM: replace a user (RFC 7644 §3.5.1); `active: false` deactivates',
      description:
        'Deactivating ends every browser session and refresh token of the user at once and refuses their next sign-in; `active: true` reactivates. `If-Match` is honoured.',
      params: ID,
      responses: {
        200: scimBody('the User resource as stored', ETAG),
        400: invalid,
        ...SCIM_ERRORS,
        404: notFound,
        409: scimBody('`uniqueness`: the new userName or address is taken'),
        412: preconditionFailed,
        413: tooLarge,
      },
    },
    scimRoute(async (ctx) =>
      answerOf(ctx, await replaceScimUser(ctx.deps, ctx.caller, idOf(ctx), ctx.request.body, ifMatch(ctx))),
    ),
  ),
  operation(
    {
      ...common,
      method: 'patch',
      path: '/scim/v2/Users/:id',
      operationId: 'scimPatchUser',
      summary: 'SCIM: change a user (RFC 7644 §3.5.2)',
      description:
        'PatchOp add, remove, replace with paths and value filters; also as Microsoft Entra sends them (`Replace`, `"False"`, path-less value objects). Deactivation as for PUT. `If-Match` is honoured.',
      params: ID,
      responses: {
        200: scimBody('the User resource as stored', ETAG),
        400: scimBody(
          'not a PatchOp message, a bad path (`invalidPath`), nothing at the path (`noTarget`), or a bad value',
        ),
        ...SCIM_ERRORS,
        404: notFound,
        409: scimBody('`uniqueness`: the new userName or address is taken'),
        412: preconditionFailed,
        413: tooLarge,
      },
    },
    scimRoute(async (ctx) =>
      answerOf(ctx, await patchScimUser(ctx.deps, ctx.caller, idOf(ctx), ctx.request.body, ifMatch(ctx))),
    ),
  ),
  operation(
    {
      ...common,
      method: 'delete',
      path: '/scim/v2/Users/:id',
      operationId: 'scimDeleteUser',
      summary: 'SCIM: delete a user (RFC 7644 §3.6); their sessions and tokens end with them',
      params: ID,
      responses: { 204: { description: 'deleted' }, ...SCIM_ERRORS, 404: notFound, 412: preconditionFailed },
    },
    scimRoute(async (ctx) => {
      await deleteScimUser(ctx.deps, ctx.caller, idOf(ctx), ifMatch(ctx));
      return { status: 204 };
    }),
  ),
];
