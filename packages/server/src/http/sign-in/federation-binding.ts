import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  FEDERATION_REQUEST_TTL_MS,
  isBrowserBinding,
  newBrowserBinding,
} from '../../domain/federation/index.js';
import type { PageContext } from './context.js';

/**
 * The browser-binding cookie of enterprise sign-in (DESIGN §17): a random value set on the org's
 * host when a sign-in goes upstream, of which the sign-in keeps only the hash. The way back (the
 * OIDC callback, the SAML continue step) goes on only in a browser that sends it, so an answer
 * delivered to another browser (login CSRF) signs nobody in. SameSite=Lax: sent with the
 * top-level GET of the OIDC callback and the same-site POST of the SAML continue page, never
 * with a cross-site POST. Sent to /sso… only; lives as long as a sign-in sent upstream, or as a
 * mailed account link (/sso/{con}/link, federation-link.ts) when one is sent.
 */
const BINDING_PATH = '/sso';

/** The binding of this browser's federated sign-ins, read from its cookie; null when it has none. */
export function boundBrowser(ctx: PageContext, request: FastifyRequest): string | null {
  const value = ctx.cookies.read(request, ctx.cookies.federation);
  return value !== null && isBrowserBinding(value) ? value : null;
}

/**
 * The binding for a sign-in starting now: the browser's own when it has one (so sign-ins started
 * in two tabs both go on), else a new one; the cookie is (re)set to last as long as the sign-in.
 */
export function bindBrowser(ctx: PageContext, request: FastifyRequest, reply: FastifyReply): string {
  const value = boundBrowser(ctx, request) ?? newBrowserBinding();
  keepBrowserBinding(ctx, reply, value, FEDERATION_REQUEST_TTL_MS);
  return value;
}

/** (Re)sets the binding cookie to last `maxAgeMs`: a sign-in's, or a mailed account link's. */
export function keepBrowserBinding(ctx: PageContext, reply: FastifyReply, value: string, maxAgeMs: number) {
  ctx.cookies.set(reply, ctx.cookies.federation, value, { maxAgeMs, path: BINDING_PATH });
}
