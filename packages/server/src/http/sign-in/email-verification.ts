import { peekMailLink, verifyAddress } from '../../domain/mail/index.js';
import { pageLink, queryValue } from './context.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { linkClosedView, verifiedView, verifyView } from './mail-views.js';
import { textsOf } from './page-texts.js';
import { sendPage } from './respond.js';

const VERIFY = '/email/verify';

/*
 * GET /email/verify?token=… shows a Confirm button without using the link (mail scanners follow
 * links but do not submit forms); POST uses it and marks the address verified.
 */

/** A verification link that is used, expired or unknown: 400. */
function sendClosed({ org, request, reply }: Visit) {
  const body = linkClosedView(textsOf(request), 'verification', null);
  return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), body, { status: 400 });
}

export const verifyEmailPage = hostedPage(
  { path: VERIFY, summary: 'a verification link: the button confirming the address' },
  async (visit) => {
    const { ctx, org, request, reply } = visit;
    const token = queryValue(request, 'token') ?? '';
    const link = await peekMailLink(ctx.deps, org, 'verify', token);
    if (link === null) return sendClosed(visit);
    const body = verifyView(textsOf(request), {
      action: pageLink(ctx, request, VERIFY, {}),
      csrf: ctx.csrf.token(request, reply, 'email-verify', []),
      token,
      email: link.user.email,
    });
    return sendPage(reply, org.name, textsOf(request).t('verify.title'), body);
  },
);

export const verifyEmail = hostedPage(
  {
    path: VERIFY,
    summary: 'confirm the address: the link is used',
    form: ['csrf', 'token'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    if (!ctx.csrf.check(request, 'email-verify', [], form.csrf)) return refuseForm(visit);
    const user = await verifyAddress(ctx.deps, org, form.token);
    if (user === null) return sendClosed(visit);
    const body = verifiedView(textsOf(request), user.email);
    return sendPage(reply, org.name, textsOf(request).t('verified.title'), body);
  },
);
