import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import type { ManagementScope } from '../../domain/directory/index.js';
import type { BearerCaller } from '../bearer.js';
import type { ListTotal } from '../link-header.js';
import type { Operation } from '../openapi/operation.js';
import type { ConsoleCaller, OrgCaller, OwnerCaller } from './owner-caller.js';

/**
 * Who the guard lets through, beyond a token granted the operation's scope (http/management/guard.ts):
 * - `owners`: an owner of `{org}` (a member who is not gets 403 `forbidden`, a stranger 404), or a
 *   service account bound to it unless `people`;
 * - `owners, members 404`: the same, but a member gets 404 `not_found` as a stranger does;
 * - `members`: any member of `{org}`, or a service account bound to it;
 * - `console user`: any console user, about themselves rather than one org (`people` is required).
 */
export type Who = 'owners' | 'owners, members 404' | 'members' | 'console user';

/** The error code a body failing its schema gets: the management API's, or the user APIs'. */
export type BodyErrors = 'invalid_request' | 'invalid_body';

/** A JSON body as an endpoint declares it. */
export interface DeclaredBody {
  contentType: 'application/json';
  schema: z.ZodType;
  errors: BodyErrors;
  /** A refusal in the operation's own words, run on the raw body before the schema. */
  precheck?: (raw: unknown) => void;
}

/** What a management endpoint declares beside the documented operation: console tokens, a scope, who. */
export interface ManagementShape extends Operation {
  auth: 'console';
  scope: ManagementScope;
  who: Who;
  body?: DeclaredBody;
}

/**
 * What an endpoint of the signed-in person declares (http/account/): the user tokens it takes
 * (`user`, or `user-or-console` for what is about the person rather than a tenant).
 */
export interface AccountShape extends Operation {
  auth: 'user' | 'user-or-console';
  body?: DeclaredBody;
}

/** What an endpoint declares beside the documented operation. */
export type EndpointShape = ManagementShape | AccountShape;

type CallerOf<D> = D extends { auth: 'user' | 'user-or-console' }
  ? BearerCaller
  : D extends { who: 'console user' }
    ? ConsoleCaller
    : D extends { people: true }
      ? OwnerCaller
      : OrgCaller;
type ParamsOf<D> = D extends { params: infer P } ? { [K in keyof P]: string } : Record<never, string>;
type BodyOf<D> = D extends { body: { schema: infer S extends z.ZodType } } ? z.output<S> : undefined;
type QueryOf<D> = D extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;

/** The success statuses an endpoint may answer with. */
type SuccessStatus = 200 | 201 | 202 | 204;
type ResponsesOf<D> = D extends { responses: infer R } ? R : never;
type BodyAt<D, S extends PropertyKey> = ResponsesOf<D>[S & keyof ResponsesOf<D>] extends {
  schema: infer B extends z.ZodType;
}
  ? z.output<B>
  : undefined;

/**
 * What a handler answers: one of the success statuses its declaration documents, with a body of
 * that response's schema (none where it declares none). A body of another shape, or a status the
 * declaration does not list, fails the typecheck. Built with ok/created/accepted/noContent.
 */
export type Answer<D> = {
  [K in SuccessKey<D>]: { readonly status: StatusOf<K>; readonly body: BodyAt<D, K> };
}[SuccessKey<D>];
/** A declaration's success keys: numbers as written, or strings where a helper's spread made them so. */
type SuccessKey<D> = Extract<keyof ResponsesOf<D>, SuccessStatus | `${SuccessStatus}`>;
type StatusOf<K> = K extends `${infer N extends number}` ? N : K;

/** 200 with `body`. */
export const ok = <B>(body: B) => ({ status: 200, body }) as const;
/** 201 with what was created. */
export const created = <B>(body: B) => ({ status: 201, body }) as const;
/** 202 with what was queued. */
export const accepted = <B>(body: B) => ({ status: 202, body }) as const;
/** 204, no body. */
export const noContent = () => ({ status: 204, body: undefined }) as const;

/** What a handler is given: the request already guarded and its input already parsed. */
export interface Call<D> {
  deps: Deps;
  request: FastifyRequest;
  params: ParamsOf<D>;
  caller: CallerOf<D>;
  body: BodyOf<D>;
  query: QueryOf<D>;
  /**
   * One page of a paged list (http/management/paged-list.ts), answered 200 with the entries as the
   * body and the `Link` header keeping `filters` in that order. `total` is the number of entries, or
   * (`{ atLeast }`) a lower bound of it: the header then has no `last`.
   */
  page<T>(
    entries: T[],
    total: ListTotal,
    filters?: readonly string[],
  ): { readonly status: 200; readonly body: T[] };
}

/** What the route sends of any answer: its status and body (with `Cache-Control: no-store`). */
export interface SentAnswer {
  status: SuccessStatus;
  body: unknown;
}

/** One HTTP operation, declared once: the route is registered from it and the document built from it. */
export type Endpoint = EndpointShape & {
  handle(call: Call<EndpointShape>): Promise<SentAnswer>;
};

/**
 * Declares an endpoint: its operation (method, path, scope, who, error family, schemas, documented
 * responses) and its handler, whose `params`, `caller`, `body` and `query` are typed from it, and
 * whose answer is typed from the documented success responses (Answer).
 */
export function endpoint<const D extends EndpointShape>(
  declaration: D,
  handle: (call: Call<D>) => Promise<Answer<D>>,
): Endpoint {
  return { ...declaration, handle: handle as Endpoint['handle'] };
}

export const isEndpoint = (op: Operation): op is Endpoint => 'handle' in op;
