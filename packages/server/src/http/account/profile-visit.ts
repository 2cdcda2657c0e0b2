import type { FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import type { Org } from '../../domain/types.js';
import type { PageContext } from '../sign-in/context.js';
import type { Visit } from '../sign-in/hosted-page.js';
import { refuseForm } from '../sign-in/hosted-page.js';
import { textsOf } from '../sign-in/page-texts.js';
import { sendErrorPage } from '../sign-in/respond.js';

/** The profile cookie holds `org|user|expiry`, signed; it opens this page only, for 15 minutes. */
export function profileUserOf(ctx: PageContext, org: Org, request: FastifyRequest): string | null {
  const value = ctx.cookies.read(request, ctx.cookies.profile);
  const [orgId, userId, expires] = value?.split('|') ?? [];
  if (orgId !== org.id || !userId || !(Number(expires) > clock.now())) return null;
  return userId;
}

/** The profile page's cookie is missing or past its 15 minutes: 401, the page's HTML error. */
export const sendProfileExpired = ({ org, request, reply }: Visit) =>
  sendErrorPage(reply, org.name, 401, textsOf(request).t('profile.expired'), 'profile.page.expired');

/**
 * The person a profile form is posted for: the one the page's cookie names, when the form's CSRF
 * token (`csrf`, of the form `form`) is bound to them; else the refusal, already sent.
 */
export function profileFormUser(
  visit: Visit,
  form: string,
  csrf: string,
): { readonly userId: string } | { readonly done: unknown } {
  const { ctx, org, request } = visit;
  const userId = profileUserOf(ctx, org, request);
  if (userId === null) return { done: sendProfileExpired(visit) };
  if (!ctx.csrf.check(request, form, [userId], csrf)) return { done: refuseForm(visit) };
  return { userId };
}

/** What the profile page shows above its sections after a form: an error or a notice, and the status. */
export interface ProfileState {
  error?: string;
  notice?: string;
  status?: number;
  headers?: Record<string, string>;
}
