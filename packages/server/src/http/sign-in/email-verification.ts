import type { FastifyInstance, FastifyRequest } from 'fastify';
import { peekMailLink, verifyAddress } from '../../domain/mail/index.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { linkClosedView, verifiedView, verifyView } from './mail-views.js';
import { textsOf } from './page-texts.js';
import { sendErrorPage, sendPage } from './respond.js';

const VERIFY = '/email/verify';

/**
 * GET /email/verify?token=… shows a Confirm button without using the link (mail scanners follow
 * links but do not submit forms); POST uses it and marks the address verified.
 */
export function emailVerificationPages(app: FastifyInstance, ctx: PageContext) {
  const closed = (request: FastifyRequest) => linkClosedView(textsOf(request), 'verification', null);

  app.get(
    VERIFY,
    pageRoute(ctx, async (org, request, reply) => {
      const token = queryValue(request, 'token') ?? '';
      const link = await peekMailLink(ctx.deps, org, 'verify', token);
      if (link === null)
        return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), closed(request), {
          status: 400,
        });
      const body = verifyView(textsOf(request), {
        action: pageLink(ctx, request, VERIFY, {}),
        csrf: ctx.csrf.token(request, reply, 'email-verify', []),
        token,
        email: link.user.email,
      });
      return sendPage(reply, org.name, textsOf(request).t('verify.title'), body);
    }),
  );

  app.post(
    VERIFY,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      if (!ctx.csrf.check(request, 'email-verify', [], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const user = await verifyAddress(ctx.deps, org, field(form, 'token'));
      if (user === null)
        return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), closed(request), {
          status: 400,
        });
      return sendPage(
        reply,
        org.name,
        textsOf(request).t('verified.title'),
        verifiedView(textsOf(request), user.email),
      );
    }),
  );
}
