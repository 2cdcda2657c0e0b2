import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { ServiceError } from '../../domain/errors.js';
import { resumeBrowserSession } from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { type FormParams, isForm } from '../form.js';
import { HOST_OVERRIDE_PARAMETER, hostOverride } from '../host-override.js';
import { orgPathPrefix } from '../org-path.js';
import { ORG_CACHE_TTL_MS, orgOf } from '../org-routing.js';
import type { PageCookies } from './cookies.js';
import type { Csrf } from './csrf.js';
import { negotiatePageBrand } from './page-brand.js';
import { type PageRouteOptions, pageRouteOptions } from './page-routes.js';
import { negotiatePageTexts } from './page-texts.js';

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
 * A link to another page of this org: `path` under the org's `/o/<slug>` with path issuers
 * (org-path.ts). In loopback development a request may name its org with the `host` query
 * parameter (host-override.ts); links keep it so the flow stays on that org.
 */
export function pageLink(
  ctx: PageContext,
  request: FastifyRequest,
  path: string,
  params: Record<string, string> | URLSearchParams,
) {
  const query = new URLSearchParams(params);
  const override = hostOverride(ctx.deps.config, request);
  if (override !== null) query.set(HOST_OVERRIDE_PARAMETER, override);
  const search = query.toString();
  const target = `${orgPathPrefix(request)}${path}`;
  return search === '' ? target : `${target}?${search}`;
}

/** The first value of a form field, '' when absent. */
export const field = (form: FormParams, name: string): string => form.get(name)?.[0] ?? '';

export function formOf(request: FastifyRequest): FormParams {
  if (!isForm(request.body)) throw new ServiceError('page.form.not_form', 'this form was not sent as a form');
  return request.body;
}

/** A query parameter given exactly once, else undefined. */
export function queryValue(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type PageHandler = (org: Org, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A hosted page route (its options: the handler, marked as a page's): resolves the org (from the
 * change-notified org cache, as the token endpoint does: a sign-in's pages read it three times) and
 * runs the handler. What it throws is shown as the page's HTML error page by renderError (errors.ts),
 * like input refused before the handler ran.
 */
export function pageRoute(ctx: PageContext, handler: PageHandler): PageRouteOptions {
  return pageRouteOptions(async (request, reply) => {
    const org = await orgOf(ctx.deps, request, ORG_CACHE_TTL_MS);
    await negotiatePageTexts(ctx, org, request, reply);
    await negotiatePageBrand(ctx, org, request);
    return handler(org, request, reply);
  });
}
