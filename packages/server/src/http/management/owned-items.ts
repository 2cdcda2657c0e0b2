import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import type { Actor, Org } from '../../domain/types.js';
import type { ListTotal } from '../link-header.js';
import type { ResponseSpec } from '../openapi/operation.js';
import { created, type Endpoint, endpoint, noContent, ok } from './endpoint.js';
import type { OrgCaller } from './owner-caller.js';
import type { PageQuery } from './paged-list.js';
import { apiError, forbidden, invalid, MANAGEMENT, noOrg, ORG, unauthorized } from './responses.js';

/** What one operation says in its own words. */
interface Words {
  operationId: string;
  summary: string;
  description?: string;
}

/** Refusals an operation adds to, or words differently from, the ones its kind shares. */
type Refusals = Partial<Record<400 | 401 | 403 | 404 | 409 | 502 | 503, ResponseSpec>>;

/** A page of entries as the domain lists them. */
interface Listed<E> {
  entries: E[];
  total: ListTotal;
}

/** One kind of thing an org owns, as its operations' declarations name it. */
export interface OwnedKind {
  /** The collection: `/organizations/:org/roles`; one of them is at `…/:id`. */
  path: string;
  /** In the answers' words: `the role`, `the role as updated`. */
  noun: string;
  /** The `{id}` path parameter: `the role id (\`rol_…\`)`. */
  id: string;
  /** The 404 of an operation on one of them; by default, no such org or no such `noun` in it. */
  notFound?: ResponseSpec;
  /** Console users only: a service account's token is refused (403) whatever its scopes. */
  people?: true;
}

/**
 * The operations on one kind of thing an org owns and its owners manage (members 403): list,
 * create, read, update, delete, and a POST action on one of them. Each is declared here once
 * (method, path, scope, who, the shared refusals); a route file gives each its own words, schemas
 * and the domain call.
 */
export function ownedItems(kind: OwnedKind) {
  const item = `${kind.path}/:id`;
  const params = { ...ORG, id: kind.id };
  const notFound = kind.notFound ?? apiError(`\`not_found\`: no such org, or no such ${kind.noun} in it`);
  const people = kind.people ? { people: kind.people } : {};
  const read = { ...MANAGEMENT, scope: 'org:read', who: 'owners', ...people } as const;
  const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners', ...people } as const;
  /** The refusals of an operation on one of them. */
  const refused = { 401: unauthorized, 403: forbidden, 404: notFound } as const;
  const words = ({ operationId, summary, description }: Words) => ({
    operationId,
    summary,
    ...(description === undefined ? {} : { description }),
  });

  return {
    // The kind's path parameters, 404 and scopes, for its other operations (declared with endpoint()).
    params,
    notFound,
    read,
    write,

    /**
     * GET the collection, one page of it: `responses` as the list words them (listResponses), the
     * domain's page of entries, and each entry's view.
     */
    list<E, V>(
      op: Words & {
        query: z.ZodType<PageQuery>;
        responses: { 200: ResponseSpec & { schema: z.ZodType<V[]> } } & Refusals;
      },
      fetch: (deps: Deps, org: Org, paging: { page: number; perPage: number }) => Promise<Listed<E>>,
      view: (entry: E, deps: Deps, org: Org) => V,
    ): Endpoint {
      const responses: { 200: ResponseSpec & { schema: z.ZodType } } & Refusals = op.responses;
      return endpoint(
        {
          ...read,
          ...words(op),
          method: 'get',
          path: kind.path,
          params: ORG,
          query: op.query,
          responses,
        },
        async ({ deps, caller: { org }, query, page }) => {
          const list = await fetch(deps, org, { page: query.page, perPage: query.per_page });
          return page(
            list.entries.map((entry) => view(entry, deps, org)),
            list.total,
          );
        },
      );
    },

    /** POST to the collection: 201 with what was created (`answer` words it), or a refusal. */
    create<B extends z.ZodType, S extends z.ZodType>(
      op: Words & { body: B; schema: S; answer?: string; refusals?: Refusals },
      make: (deps: Deps, caller: OrgCaller, body: z.output<B>) => Promise<z.output<S>>,
    ): Endpoint {
      const schema: z.ZodType = op.schema;
      const body: z.ZodType = op.body;
      return endpoint(
        {
          ...write,
          ...words(op),
          method: 'post',
          path: kind.path,
          params: ORG,
          body: { contentType: 'application/json', schema: body, errors: 'invalid_request' },
          responses: {
            201: { description: op.answer ?? 'created', schema },
            400: invalid,
            401: unauthorized,
            403: forbidden,
            404: noOrg,
            ...op.refusals,
          },
        },
        async ({ deps, caller, body }) => created(await make(deps, caller, body as z.output<B>)),
      );
    },

    /** GET one of them: 200 with it, or 404. */
    get<S extends z.ZodType>(
      op: Words & { schema: S; answer?: string },
      fetch: (deps: Deps, org: Org, id: string) => Promise<z.output<S>>,
    ): Endpoint {
      const schema: z.ZodType = op.schema;
      return endpoint(
        {
          ...read,
          ...words(op),
          method: 'get',
          path: item,
          params,
          responses: { 200: { description: op.answer ?? `the ${kind.noun}`, schema }, ...refused },
        },
        async ({ deps, caller: { org }, params }) => ok(await fetch(deps, org, params.id)),
      );
    },

    /** PATCH one of them: 200 with it as updated, or a refusal. */
    update<B extends z.ZodType, S extends z.ZodType>(
      op: Words & {
        body: B;
        precheck?: (raw: unknown) => void;
        schema: S;
        answer?: string;
        refusals?: Refusals;
      },
      change: (deps: Deps, caller: OrgCaller, id: string, body: z.output<B>) => Promise<z.output<S>>,
    ): Endpoint {
      const schema: z.ZodType = op.schema;
      const body: z.ZodType = op.body;
      const precheck = op.precheck ? { precheck: op.precheck } : {};
      return endpoint(
        {
          ...write,
          ...words(op),
          method: 'patch',
          path: item,
          params,
          body: { contentType: 'application/json', schema: body, errors: 'invalid_request', ...precheck },
          responses: {
            200: { description: op.answer ?? `the ${kind.noun} as updated`, schema },
            400: invalid,
            ...refused,
            ...op.refusals,
          },
        },
        async ({ deps, caller, params, body }) =>
          ok(await change(deps, caller, params.id, body as z.output<B>)),
      );
    },

    /** DELETE one of them (or, `at` a sub-path, what it holds): 204, or a refusal. */
    remove(
      op: Words & { at?: string; answer?: string; refusals?: Refusals },
      remove: (deps: Deps, org: Org, id: string, actor: Actor) => Promise<unknown>,
    ): Endpoint {
      return endpoint(
        {
          ...write,
          ...words(op),
          method: 'delete',
          path: `${item}${op.at ?? ''}`,
          params,
          responses: { 204: { description: op.answer ?? 'deleted; no body' }, ...refused, ...op.refusals },
        },
        async ({ deps, caller: { org, actor }, params }) => {
          await remove(deps, org, params.id, actor);
          return noContent();
        },
      );
    },

    /** POST an action `at` a sub-path of one of them (a new secret): 200 with `schema`, or a refusal. */
    act<S extends z.ZodType>(
      op: Words & { at: string; schema: S; answer: string; refusals?: Refusals },
      act: (deps: Deps, org: Org, id: string, actor: Actor) => Promise<z.output<S>>,
    ): Endpoint {
      const schema: z.ZodType = op.schema;
      return endpoint(
        {
          ...write,
          ...words(op),
          method: 'post',
          path: `${item}${op.at}`,
          params,
          responses: { 200: { description: op.answer, schema }, ...refused, ...op.refusals },
        },
        async ({ deps, caller: { org, actor }, params }) => ok(await act(deps, org, params.id, actor)),
      );
    },
  };
}
