import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../domain/types.js';
import { type PageContext, pageLink } from '../sign-in/context.js';
import type { SafeHtml } from '../sign-in/html.js';
import { credentialsSectionView } from '../sign-in/mail-views.js';
import { textsOf } from '../sign-in/page-texts.js';

/** The CSRF form name of the profile page's address and password forms (profile-credentials.ts). */
export const CREDENTIALS_FORM = 'profile-credentials';

/** The address and password section of the profile page (mail-views.ts credentialsSectionView). */
export function credentialsSection(
  ctx: PageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): SafeHtml {
  return credentialsSectionView(textsOf(request), {
    emailAction: pageLink(ctx, request, '/profile/email', {}),
    passwordAction: pageLink(ctx, request, '/profile/password', {}),
    csrf: ctx.csrf.token(request, reply, CREDENTIALS_FORM, [user.id]),
    email: user.email,
    verified: user.emailVerified,
  });
}
