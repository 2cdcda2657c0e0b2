import type { Deps } from '../../domain/context.js';
import {
  etagOf,
  type ListPage,
  type ListQuery,
  type ScimCreate,
  type ScimDelete,
  type ScimRead,
  type ScimWrite,
  scimBaseUrl,
} from '../../domain/scim/index.js';
import type { Org } from '../../domain/types.js';
import type { ResponseSpec } from '../openapi/operation.js';
import { operation, type ServedOperation } from '../served-operation.js';
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

/** A summary, and the description under it when there is one. */
interface Summary {
  summary: string;
  description?: string;
}

const summaryOf = ({ summary, description }: Summary) => ({
  summary,
  ...(description === undefined ? {} : { description }),
});

/**
 * A SCIM resource type's endpoint (RFC 7644 §3): the domain's operations on the type, and what its
 * documentation says that is the type's own.
 */
export interface ScimResourceEndpoint<V> {
  /** `Users`, `Groups`: the endpoint under /scim/v2/ (RFC 7643 §6). */
  endpoint: 'Users' | 'Groups';
  /** `User`, `Group`: the resource type. */
  type: 'User' | 'Group';
  represent(deps: Deps, org: Org, resource: V): Record<string, unknown>;
  version(resource: V): number;
  id(resource: V): string;
  create: ScimCreate<V>;
  read: ScimRead<V>;
  /** The page a list asks for, its filter read from the request. */
  list(ctx: ScimContext, query: ListQuery): Promise<ListPage>;
  replace: ScimWrite<V>;
  patch: ScimWrite<V>;
  remove: ScimDelete;
  docs: {
    /** The `:id` path parameter. */
    id: string;
    etag: string;
    notFound: string;
    /** A body that is not a resource of the type (POST, PUT). */
    invalid: string;
    /** A 409 of PUT and PATCH, when the type has one. */
    conflict?: string;
    create: Summary & { conflict?: string };
    list: { description: string };
    replace: Summary;
    patch: Summary & { invalid: string };
    remove: Summary;
  };
}

const common = { tag: 'scim', hosts: 'every', auth: 'scim' } as const;
const tooLarge = scimBody('the body is larger than the maxPayloadSize of ServiceProviderConfig');

/**
 * The operations of a SCIM resource type's endpoint, for the directory whose bearer token the
 * request carries: create, list with `filter`, read, replace, patch and delete (RFC 7644 §3.3–3.6).
 * Each answers the resource shaped by `attributes` and `excludedAttributes`, with its ETag.
 */
export function scimResourceOperations<V>(r: ScimResourceEndpoint<V>): ServedOperation[] {
  const noun = r.type.toLowerCase();
  const path = `/scim/v2/${r.endpoint}`;
  const params = { id: r.docs.id };
  const ETAG = { etag: r.docs.etag };
  const notFound = scimBody(r.docs.notFound);
  const preconditionFailed = scimBody(`If-Match names a version the ${noun} no longer has`);
  const conflict: Record<string, ResponseSpec> =
    r.docs.conflict === undefined ? {} : { 409: scimBody(r.docs.conflict) };
  const answerOf = (ctx: ScimContext, resource: V, status: 200 | 201 = 200) => ({
    status,
    body: shaped(ctx, r.represent(ctx.deps, ctx.caller.org, resource)),
    etag: etagOf(r.version(resource)),
  });
  /** PUT or PATCH (RFC 7644 §3.5): the resource as stored after the body, held to `If-Match`. */
  const write = (
    method: 'put' | 'patch',
    verb: string,
    docs: Summary,
    invalidBody: string,
    change: ScimWrite<V>,
  ): ServedOperation =>
    operation(
      {
        ...common,
        method,
        path: `${path}/:id`,
        operationId: `scim${verb}${r.type}`,
        ...summaryOf(docs),
        params,
        responses: {
          200: scimBody(`the ${r.type} resource as stored`, ETAG),
          400: scimBody(invalidBody),
          ...SCIM_ERRORS,
          404: notFound,
          ...conflict,
          412: preconditionFailed,
          413: tooLarge,
        },
      },
      scimRoute(async (ctx) =>
        answerOf(ctx, await change(ctx.deps, ctx.caller, idOf(ctx), ctx.request.body, ifMatch(ctx))),
      ),
    );
  return [
    operation(
      {
        ...common,
        method: 'post',
        path,
        operationId: `scimCreate${r.type}`,
        ...summaryOf(r.docs.create),
        responses: {
          201: scimBody(`the ${r.type} resource as stored`, { ...ETAG, location: 'the resource’s URL' }),
          400: scimBody(r.docs.invalid),
          ...SCIM_ERRORS,
          ...(r.docs.create.conflict === undefined ? {} : { 409: scimBody(r.docs.create.conflict) }),
          413: tooLarge,
        },
      },
      scimRoute(async (ctx) => {
        const created = await r.create(ctx.deps, ctx.caller, ctx.request.body);
        return {
          ...answerOf(ctx, created, 201),
          location: `${scimBaseUrl(ctx.deps, ctx.caller.org)}${r.endpoint}/${r.id(created)}`,
        };
      }),
    ),
    operation(
      {
        ...common,
        method: 'get',
        path,
        operationId: `scimList${r.endpoint}`,
        summary: `SCIM: list or search the directory’s ${noun}s (RFC 7644 §3.4.2)`,
        description: r.docs.list.description,
        responses: {
          200: scimBody('a ListResponse'),
          400: scimBody(
            `\`invalidFilter\`: the filter does not parse, or is too long or too deep; \`tooMany\`: a filter no index serves, on a directory of more than 20,000 ${noun}s; or a bad startIndex, count or attribute list`,
          ),
          ...SCIM_ERRORS,
        },
      },
      scimRoute(async (ctx) => {
        const { startIndex, count } = pageOf(ctx);
        const list = await r.list(ctx, { filter: oneQueryValue(ctx.request, 'filter'), startIndex, count });
        return listAnswer(ctx, startIndex, list);
      }),
    ),
    operation(
      {
        ...common,
        method: 'get',
        path: `${path}/:id`,
        operationId: `scimGet${r.type}`,
        summary: `SCIM: one ${noun} (RFC 7644 §3.4.1)`,
        params,
        responses: {
          200: scimBody(`the ${r.type} resource`, ETAG),
          400: scimBody('attributes or excludedAttributes is not a list of attribute paths'),
          ...SCIM_ERRORS,
          404: notFound,
        },
      },
      scimRoute(async (ctx) => answerOf(ctx, await r.read(ctx.deps, ctx.caller, idOf(ctx)))),
    ),
    write('put', 'Replace', r.docs.replace, r.docs.invalid, r.replace),
    write('patch', 'Patch', r.docs.patch, r.docs.patch.invalid, r.patch),
    operation(
      {
        ...common,
        method: 'delete',
        path: `${path}/:id`,
        operationId: `scimDelete${r.type}`,
        ...summaryOf(r.docs.remove),
        params,
        responses: {
          204: { description: 'deleted' },
          ...SCIM_ERRORS,
          404: notFound,
          412: preconditionFailed,
        },
      },
      scimRoute(async (ctx) => {
        await r.remove(ctx.deps, ctx.caller, idOf(ctx), ifMatch(ctx));
        return { status: 204 };
      }),
    ),
  ];
}
