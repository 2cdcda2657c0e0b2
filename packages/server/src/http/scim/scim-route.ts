import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import {
  attributeList,
  authenticateDirectory,
  LIST_SCHEMA,
  MAX_RESULTS,
  project,
  type ScimCaller,
} from '../../domain/scim/index.js';
import { authenticateBearerWith } from '../bearer.js';
import { noStore } from '../no-store.js';
import type { ResponseSpec } from '../openapi/operation.js';
import type { ServedRoute, Serving } from '../served-operation.js';
import { SCIM_CONTENT_TYPE } from './scim-errors.js';

/** What a SCIM handler answers: a status, a body (none for 204) and the resource's ETag. */
export interface ScimAnswer {
  status: 200 | 201 | 204;
  body?: Record<string, unknown>;
  etag?: string;
  /** The created resource's URL (RFC 7644 §3.3). */
  location?: string;
}

export interface ScimContext {
  deps: Deps;
  caller: ScimCaller;
  request: FastifyRequest;
}

/**
 * A SCIM route: the directory the bearer token belongs to, in the org of the host (any other token
 * is the one generic 401), then the handler; the answer as `application/scim+json`, never stored.
 */
export const scimRoute =
  (run: (ctx: ScimContext) => Promise<ScimAnswer>) =>
  ({ deps }: Serving): ServedRoute => ({
    onSend: [noStore],
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { access: caller } = await authenticateBearerWith(deps, request, (org, token) =>
        authenticateDirectory(deps, org, token),
      );
      const answer = await run({ deps, caller, request });
      reply.code(answer.status);
      if (answer.etag !== undefined) reply.header('etag', answer.etag);
      if (answer.location !== undefined) reply.header('location', answer.location);
      if (answer.body === undefined) return reply.send();
      return reply.type(SCIM_CONTENT_TYPE).send(JSON.stringify(answer.body));
    },
  });

/** A SCIM answer's documentation: the media type, no JSON schema (RFC 7643 defines it). */
export const scimBody = (description: string, headers?: Record<string, string>): ResponseSpec => ({
  description,
  contentType: 'application/scim+json',
  ...(headers ? { headers } : {}),
});

/** The SCIM error answers every SCIM operation may give. */
export const SCIM_ERRORS = {
  401: scimBody('no bearer token, or not the token of a directory of this organization (`WWW-Authenticate`)'),
  503: scimBody('the database cannot be reached; try again after `Retry-After`', {
    'retry-after': 'seconds to wait before trying again',
  }),
};

/** A query parameter's single value; repeated, it is refused. */
export function oneQueryValue(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Record<string, unknown>;
  const key = Object.keys(query).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = query[key];
  return typeof value === 'string' ? value : fail('scim.query.repeated', `${name} is given more than once`);
}

/** The `:id` of the path. */
export const idOf = (ctx: ScimContext) => (ctx.request.params as { id: string }).id;

/** The `If-Match` header, when one is given. */
export const ifMatch = (ctx: ScimContext) => {
  const value = ctx.request.headers['if-match'];
  return typeof value === 'string' ? value : undefined;
};

/** `attributes` / `excludedAttributes` of the query (RFC 7644 §3.9), applied to one resource. */
export function shaped(ctx: ScimContext, resource: Record<string, unknown>) {
  const attributes = attributeList(oneQueryValue(ctx.request, 'attributes'));
  const excluded = attributeList(oneQueryValue(ctx.request, 'excludedAttributes'));
  return project(resource, attributes, excluded);
}

/** A non-negative integer query parameter (startIndex, count), or its default. */
function integer(ctx: ScimContext, name: string, fallback: number): number {
  const text = oneQueryValue(ctx.request, name);
  if (text === undefined) return fallback;
  if (!/^-?\d{1,9}$/.test(text)) return fail('scim.paging.invalid', `${name} must be an integer`);
  return Number(text);
}

/** The page a list asks for (RFC 7644 §3.4.2.4): `startIndex` at least 1, `count` within 0…MAX_RESULTS. */
export function pageOf(ctx: ScimContext): { startIndex: number; count: number } {
  const startIndex = Math.max(1, integer(ctx, 'startIndex', 1));
  const count = Math.max(0, Math.min(MAX_RESULTS, integer(ctx, 'count', MAX_RESULTS)));
  return { startIndex, count };
}

/** A ListResponse (RFC 7644 §3.4.2) of one page, each resource shaped by the query. */
export const listAnswer = (
  ctx: ScimContext,
  startIndex: number,
  list: { total: number; resources: Record<string, unknown>[] },
): ScimAnswer => ({
  status: 200,
  body: {
    schemas: [LIST_SCHEMA],
    totalResults: list.total,
    startIndex,
    itemsPerPage: list.resources.length,
    Resources: list.resources.map((r) => shaped(ctx, r)),
  },
});
