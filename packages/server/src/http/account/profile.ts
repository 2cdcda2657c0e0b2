import type { FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import { redeemProfileKey, requireUser, updateOwnProfile } from '../../domain/directory/index.js';
import { inputProblemOf, ServiceError } from '../../domain/errors.js';
import { orgRequiresMfa, secondFactorStatus } from '../../domain/sign-in/index.js';
import { PROFILE_PAGE_TTL_MS } from '../../domain/tokens-policy.js';
import type { Org, User } from '../../domain/types.js';
import { formOf, type PageContext, pageLink, queryValue } from '../sign-in/context.js';
import { hostedPage, type Visit } from '../sign-in/hosted-page.js';
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
import { type ProfileState, profileFormUser, profileUserOf, sendProfileExpired } from './profile-visit.js';

async function renderProfile(
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

/** The profile page again, after a form of one of its sections: an error or a notice above them. */
export function showProfile(visit: Visit, user: User, state: ProfileState) {
  const { ctx, org, request, reply } = visit;
  if (state.headers) reply.headers(state.headers);
  return renderProfile(ctx, org, request, reply, user, {
    error: state.error ?? null,
    saved: false,
    ...(state.notice ? { notice: state.notice } : {}),
    ...(state.status ? { status: state.status } : {}),
  });
}

/*
 * GET /profile?key=… redeems the single-use key of POST /profile/session, sets the profile
 * cookie and redirects to /profile, so the key leaves the address bar and history at once.
 * GET and POST /profile then show and save the names and the other claims a person gives about
 * themselves (profile-claims.ts).
 */

/** The profile key: a cookie for this page in its place, and the page at its plain address. */
async function redeemKey(visit: Visit, key: string) {
  const { ctx, org, request, reply } = visit;
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

export const profilePage = hostedPage(
  { path: '/profile', summary: 'the profile page (opened with a one-time profile key)' },
  async (visit) => {
    const { ctx, org, request, reply } = visit;
    const key = queryValue(request, 'key');
    if (key !== undefined) return redeemKey(visit, key);
    const userId = profileUserOf(ctx, org, request);
    if (userId === null) return sendProfileExpired(visit);
    const user = await requireUser(ctx.deps, userId);
    return renderProfile(ctx, org, request, reply, user, { error: null, saved: false });
  },
);

export const profileSave = hostedPage(
  {
    path: '/profile',
    summary: 'save the names and the claims a person gives about themselves',
    // The claims' fields too: profile-claims.ts reads them, telling a field left out from one emptied.
    form: ['csrf', 'first_name', 'last_name'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const caller = profileFormUser(visit, 'profile', form.csrf);
    if ('done' in caller) return caller.done;
    const posted = formOf(request);
    const names = { firstName: form.first_name, lastName: form.last_name };
    try {
      const user = await updateOwnProfile(ctx.deps, caller.userId, { ...names, ...ownProfileInput(posted) });
      return renderProfile(ctx, org, request, reply, user, { error: null, saved: true });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'invalid_body') throw error;
      const user = { ...(await requireUser(ctx.deps, caller.userId)), ...names };
      const texts = textsOf(request);
      const message = texts.t('profile.check_form', { detail: ruleText(texts, inputProblemOf(error)) });
      const typed = typedClaimFieldValues(posted);
      return renderProfile(ctx, org, request, reply, user, {
        error: message,
        saved: false,
        status: 400,
        typed,
      });
    }
  },
);
