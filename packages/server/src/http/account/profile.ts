import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import { redeemProfileKey, requireUser, updateOwnProfile } from '../../domain/directory/index.js';
import { inputProblemOf, ServiceError } from '../../domain/errors.js';
import { orgRequiresMfa, secondFactorStatus } from '../../domain/sign-in/index.js';
import { PROFILE_PAGE_TTL_MS } from '../../domain/tokens-policy.js';
import type { Org, User } from '../../domain/types.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from '../sign-in/context.js';
import { LOGOUT_FORM, logoutBinding } from '../sign-in/logout.js';
import { signOutSectionView } from '../sign-in/logout-views.js';
import { ruleText, textsOf } from '../sign-in/page-texts.js';
import { sendErrorPage, sendPage } from '../sign-in/respond.js';
import { profileSectionView } from '../sign-in/second-factor-views.js';
import { profileView } from '../sign-in/views.js';
import {
  type ClaimFieldValues,
  claimFieldsView,
  claimFieldValues,
  ownProfileInput,
  typedClaimFieldValues,
} from './profile-claims.js';
import { credentialsSection } from './profile-credentials-section.js';
import { passkeysSection } from './profile-passkeys-section.js';

/** The profile cookie holds `org|user|expiry`, signed; it opens this page only, for 15 minutes. */
export function profileUserOf(ctx: PageContext, org: Org, request: FastifyRequest): string | null {
  const value = ctx.cookies.read(request, ctx.cookies.profile);
  const [orgId, userId, expires] = value?.split('|') ?? [];
  if (orgId !== org.id || !userId || !(Number(expires) > clock.now())) return null;
  return userId;
}

export async function renderProfile(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  state: { error: string | null; saved: boolean; status?: number; notice?: string; typed?: ClaimFieldValues },
) {
  const secondFactor = profileSectionView(textsOf(request), {
    enrolled: (await secondFactorStatus(ctx.deps, user.id)).enrolled,
    required: await orgRequiresMfa(ctx.deps, org),
    action: pageLink(ctx, request, '/profile/second-factor', {}),
    csrf: ctx.csrf.token(request, reply, 'profile-second-factor', [user.id]),
    manageHref: pageLink(ctx, request, '/profile/second-factor', {}),
  });
  const passkeys = await passkeysSection(ctx, request, reply, user);
  const body = profileView(textsOf(request), {
    action: pageLink(ctx, request, '/profile', {}),
    csrf: ctx.csrf.token(request, reply, 'profile', [user.id]),
    email: user.email,
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    details: claimFieldsView(textsOf(request), state.typed ?? claimFieldValues(user)),
    error: state.error,
    saved: state.saved,
    notice: state.notice ?? null,
    secondFactor,
    credentials: credentialsSection(ctx, request, reply, user),
    passkeys,
    signOut: signOutSectionView(textsOf(request), {
      action: pageLink(ctx, request, '/oauth/logout', {}),
      csrf: ctx.csrf.token(
        request,
        reply,
        LOGOUT_FORM,
        logoutBinding({ clientId: null, postLogoutRedirectUri: null, state: null }),
      ),
    }),
  });
  const scripts = passkeys !== null;
  return sendPage(reply, org.name, textsOf(request).t('profile.title'), body, {
    status: state.status ?? 200,
    scripts,
  });
}

/**
 * GET /profile?key=… redeems the single-use key of POST /profile/session, sets the profile
 * cookie and redirects to /profile, so the key leaves the address bar and history at once.
 * GET and POST /profile then show and save the names and the other claims a person gives about
 * themselves (profile-claims.ts).
 */
export function profilePages(app: FastifyInstance, ctx: PageContext) {
  app.get(
    '/profile',
    pageRoute(ctx, async (org, request, reply) => {
      const key = queryValue(request, 'key');
      if (key !== undefined) {
        const userId = await redeemProfileKey(ctx.deps, org, key);
        if (userId === null)
          return sendErrorPage(
            reply,
            org.name,
            400,
            textsOf(request).t('profile.link_closed'),
            'profile.key.invalid',
          );
        const expires = clock.now() + PROFILE_PAGE_TTL_MS;
        ctx.cookies.set(reply, ctx.cookies.profile, `${org.id}|${userId}|${expires}`, {
          path: '/profile',
          maxAgeMs: PROFILE_PAGE_TTL_MS,
        });
        return reply.redirect(pageLink(ctx, request, '/profile', {}), 303);
      }
      const userId = profileUserOf(ctx, org, request);
      if (userId === null)
        return sendErrorPage(
          reply,
          org.name,
          401,
          textsOf(request).t('profile.expired'),
          'profile.page.expired',
        );
      return renderProfile(ctx, org, request, reply, await requireUser(ctx.deps, userId), {
        error: null,
        saved: false,
      });
    }),
  );

  app.post(
    '/profile',
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const userId = profileUserOf(ctx, org, request);
      if (userId === null)
        return sendErrorPage(
          reply,
          org.name,
          401,
          textsOf(request).t('profile.expired'),
          'profile.page.expired',
        );
      if (!ctx.csrf.check(request, 'profile', [userId], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const names = { firstName: field(form, 'first_name'), lastName: field(form, 'last_name') };
      try {
        const user = await updateOwnProfile(ctx.deps, userId, { ...names, ...ownProfileInput(form) });
        return renderProfile(ctx, org, request, reply, user, { error: null, saved: true });
      } catch (error) {
        if (!(error instanceof ServiceError) || error.code !== 'invalid_body') throw error;
        const user = { ...(await requireUser(ctx.deps, userId)), ...names };
        const texts = textsOf(request);
        const message = texts.t('profile.check_form', { detail: ruleText(texts, inputProblemOf(error)) });
        const typed = typedClaimFieldValues(form);
        return renderProfile(ctx, org, request, reply, user, {
          error: message,
          saved: false,
          status: 400,
          typed,
        });
      }
    }),
  );
}
