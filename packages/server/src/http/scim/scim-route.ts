import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { authenticateDirectory, type ScimCaller } from '../../domain/scim/index.js';
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
