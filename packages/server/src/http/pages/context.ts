import type { FastifyReply, FastifyRequest, RouteShorthandOptionsWithHandler } from 'fastify';
import { resumeBrowserSession } from '../../domain/browser-sessions.js';
import type { Deps } from '../../domain/context.js';
import { ServiceError } from '../../domain/errors.js';
import type { Org } from '../../domain/types.js';
import { unavailableError } from '../errors.js';
import { type FormParams, isForm } from '../form.js';
import { orgOf } from '../org-routing.js';
import type { PageCookies } from './cookies.js';
import type { Csrf } from './csrf.js';
import { pageRouteOptions } from './page-routes.js';
import { sendErrorPage } from './respond.js';

/** What every hosted page handler is given. */
export interface PageContext {
  deps: Deps;
  cookies: PageCookies;
  csrf: Csrf;
}

/** The signed-in person of this browser on this org's host, or null. */
export async function browserSessionOf(ctx: PageContext, org: Org, request: FastifyRequest) {
  const secret = ctx.cookies.read(request, ctx.cookies.session);
  return secret === null ? null : resumeBrowserSession(ctx.deps, org, secret);
}

/**
 * A link to another page of this host. In loopback development a request may name its org with
 * the `host` query parameter (DESIGN §4); links keep it so the flow stays on that org.
 */
export function pageLink(
  ctx: PageContext,
  request: FastifyRequest,
  path: string,
  params: Record<string, string>,
) {
  const query = new URLSearchParams(params);
  const override = (request.query as Record<string, unknown> | undefined)?.host;
  if (ctx.deps.config.loopback && typeof override === 'string' && override !== '')
    query.set('host', override);
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

/** The first value of a form field, '' when absent. */
export const field = (form: FormParams, name: string): string => form.get(name)?.[0] ?? '';

export function formOf(request: FastifyRequest): FormParams {
  if (!isForm(request.body)) throw new ServiceError('invalid_body', 'this form was not sent as a form');
  return request.body;
}

/** A query parameter given exactly once, else undefined. */
export function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type PageHandler = (org: Org, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A hosted page route (its options: the handler, marked as a page's): resolves the org, and
 * turns failures into an HTML page instead of the APIs' JSON. Unexpected errors are logged by
 * code only and shown as a plain 500 page.
 */
export function pageRoute(ctx: PageContext, handler: PageHandler): RouteShorthandOptionsWithHandler {
  return pageRouteOptions(async (request, reply) => {
    let orgName = 'Tessera';
    try {
      const org = await orgOf(ctx.deps, request);
      orgName = org.name;
      return await handler(org, request, reply);
    } catch (error) {
      if (error instanceof ServiceError && error.status < 500) {
        return sendErrorPage(
          reply,
          orgName,
          error.status,
          error.detail ?? 'The request could not be completed.',
        );
      }
      const unavailable = unavailableError(error, request);
      if (unavailable) {
        reply.headers(unavailable.headers);
        return sendErrorPage(
          reply,
          orgName,
          503,
          'This page is temporarily unavailable. Try again in a moment.',
        );
      }
      request.log.error({ code: (error as { code?: unknown }).code }, 'page failed');
      return sendErrorPage(reply, orgName, 500, 'Something went wrong on our side.');
    }
  });
}
