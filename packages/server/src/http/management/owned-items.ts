import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import type { Actor, Org } from '../../domain/types.js';
import type { ListTotal } from '../link-header.js';
import type { ResponseSpec } from '../openapi/operation.js';
import { created, type Endpoint, endpoint, noContent, ok } from './endpoint.js';
import type { OrgCaller } from './owner-caller.js';
import type { PageQuery } from './paged-list.js';
import {
  apiError,
  changeRefusals,
  jsonRequest,
  noOrg,
  ORG,
  OWNERS_READ,
  OWNERS_WRITE,
  ownersRefusals,
} from './responses.js';

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

/** What a change of one of them declares: its body, its answer, and refusals of its own. */
type Change<B extends z.ZodType, S extends z.ZodType> = Words & {
  /** A sub-path of one of them whose content is changed (`/branding`), rather than itself. */
  at?: string;
  /** The largest body taken, in bytes, where it is not the app's (images in the JSON). */
  bodyLimit?: number;
  body: B;
  schema: S;
  answer?: string;
  refusals?: Refusals;
};

/** One kind of thing an org owns, as its operations' declarations name it. */
export type OwnedKind = {
  /** The collection under the org: `roles` is `/organizations/:org/roles`; one of them is at `…/:id`. */
  collection: string;
  /** In the answers' words: `the role`, `the role as updated`. */
  noun: string;
  /** The 404 of an operation on one of them; by default, no such org or no such `noun` in it. */
  notFound?: ResponseSpec;
  /** Console users only: a service account's token is refused (403, whatever its scopes). */
  people?: true;
} & (
  | {
      /** Their ids' prefix: `rol` (the `{id}` path parameter is then `the role id (\`rol_…\`)`). */
      prefix: string;
    }
  | {
      /** The `{id}` path parameter in words of its own, where the noun's are not right. */
      id: string;
    }
);

/**
 * The operations on one kind of thing an org owns and its owners manage (members 403): list,
 * create, read, update, delete, and a POST action on one of them. Each is declared here once
 * (method, path, scope, who, the shared refusals); a route file gives each its own words, schemas
 * and the domain call.
 */
export function ownedItems(kind: OwnedKind) {
  const path = `/organizations/:org/${kind.collection}`;
  const item = `${path}/:id`;
  const params = { ...ORG, id: 'id' in kind ? kind.id : `the ${kind.noun} id (\`${kind.prefix}_…\`)` };
  const notFound = kind.notFound ?? apiError(`\`not_found\`: no such org, or no such ${kind.noun} in it`);
  const people = kind.people ? { people: kind.people } : {};
  const read = { ...OWNERS_READ, ...people } as const;
  const write = { ...OWNERS_WRITE, ...people } as const;
  /** The refusals of an operation on one of them. */
  const refused = ownersRefusals(notFound);
  const words = ({ operationId, summary, description }: Words) => ({
    operationId,
    summary,
    ...(description === undefined ? {} : { description }),
  });

  type Access = typeof read | typeof write;
  type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
  /** An operation on the collection: who may call it, its words, method and path. */
  const onCollection = <M extends Method>(access: Access, method: M, op: Words) =>
    ({ ...access, ...words(op), method, path, params: ORG }) as const;
  /** An operation on one of them, or `at` a sub-path of it: who may call it, its words, method and path. */
  const onOne = <M extends Method>(access: Access, method: M, op: Words & { at?: string }) =>
    ({ ...access, ...words(op), method, path: `${item}${op.at ?? ''}`, params }) as const;

  /** A PATCH or PUT of one of them with a JSON body: 200 with `schema`, or a refusal. */
  const changeOne = <B extends z.ZodType, S extends z.ZodType>(
    method: 'patch' | 'put',
    answer: string,
    op: Change<B, S>,
    precheck: { precheck?: (raw: unknown) => void },
    change: (deps: Deps, caller: OrgCaller, id: string, body: z.output<B>) => Promise<z.output<S>>,
  ): Endpoint => {
    const schema: z.ZodType = op.schema;
    const body: z.ZodType = op.body;
    return endpoint(
      {
        ...onOne(write, method, op),
        ...(op.bodyLimit === undefined ? {} : { bodyLimit: op.bodyLimit }),
        body: { ...jsonRequest(body), ...precheck },
        responses: {
          200: { description: op.answer ?? answer, schema },
          ...changeRefusals(notFound),
          ...op.refusals,
        },
      },
      async ({ deps, caller, params, body }) =>
        ok(await change(deps, caller, params.id, body as z.output<B>)),
    );
  };

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
          ...onCollection(read, 'get', op),
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
          ...onCollection(write, 'post', op),
          body: jsonRequest(body),
          responses: {
            201: { description: op.answer ?? 'created', schema },
            ...changeRefusals(noOrg),
            ...op.refusals,
          },
        },
        async ({ deps, caller, body }) => created(await make(deps, caller, body as z.output<B>)),
      );
    },

    /**
     * GET the whole collection, not paged: 200 with what `fetch` answers (`{ data }`, every entry),
     * or a refusal.
     */
    all<S extends z.ZodType>(
      op: Words & { schema: S; answer: string },
      fetch: (deps: Deps, org: Org) => Promise<z.output<S>>,
    ): Endpoint {
      const schema: z.ZodType = op.schema;
      return endpoint(
        {
          ...onCollection(read, 'get', op),
          responses: { 200: { description: op.answer, schema }, ...ownersRefusals(noOrg) },
        },
        async ({ deps, caller: { org } }) => ok(await fetch(deps, org)),
      );
    },

    /** GET one of them (or, `at` a sub-path, what it holds): 200 with it, or 404. */
    get<S extends z.ZodType>(
      op: Words & { at?: string; schema: S; answer?: string },
      fetch: (deps: Deps, org: Org, id: string) => Promise<z.output<S>>,
    ): Endpoint {
      const schema: z.ZodType = op.schema;
      return endpoint(
        {
          ...onOne(read, 'get', op),
          responses: { 200: { description: op.answer ?? `the ${kind.noun}`, schema }, ...refused },
        },
        async ({ deps, caller: { org }, params }) => ok(await fetch(deps, org, params.id)),
      );
    },

    /** PATCH one of them (or, `at` a sub-path, what it holds): 200 with it as updated, or a refusal. */
    update<B extends z.ZodType, S extends z.ZodType>(
      op: Change<B, S> & { precheck?: (raw: unknown) => void },
      change: (deps: Deps, caller: OrgCaller, id: string, body: z.output<B>) => Promise<z.output<S>>,
    ): Endpoint {
      const precheck = op.precheck ? { precheck: op.precheck } : {};
      return changeOne('patch', `the ${kind.noun} as updated`, op, precheck, change);
    },

    /** PUT what one of them holds, `at` a sub-path (its roles), replacing it: 200 with it now, or a refusal. */
    replace<B extends z.ZodType, S extends z.ZodType>(
      op: Change<B, S> & { at: string; answer: string },
      change: (deps: Deps, caller: OrgCaller, id: string, body: z.output<B>) => Promise<z.output<S>>,
    ): Endpoint {
      return changeOne('put', op.answer, op, {}, change);
    },

    /** DELETE one of them (or, `at` a sub-path, what it holds): 204, or a refusal. */
    remove(
      op: Words & { at?: string; answer?: string; refusals?: Refusals },
      remove: (deps: Deps, org: Org, id: string, actor: Actor) => Promise<unknown>,
    ): Endpoint {
      return endpoint(
        {
          ...onOne(write, 'delete', op),
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
          ...onOne(write, 'post', op),
          responses: { 200: { description: op.answer, schema }, ...refused, ...op.refusals },
        },
        async ({ deps, caller: { org, actor }, params }) => ok(await act(deps, org, params.id, actor)),
      );
    },
  };
}
