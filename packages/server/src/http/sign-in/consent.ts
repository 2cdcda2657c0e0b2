import {
  answerDestination,
  consentResources,
  decideConsent,
  scopesToShow,
  signedInFor,
} from '../../domain/sign-in/index.js';
import { browserSessionOf, pageLink, queryValue } from './context.js';
import { isDecision, refuseUndecided } from './decision.js';
import { formTargets, pendingRequest, sendOutcome } from './flow.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { textsOf } from './page-texts.js';
import { sendPage } from './respond.js';
import { consentView } from './views.js';

/*
 * GET and POST /consent: the client's name, every scope it asks for in plain words, the host the
 * answer goes back to and, for a client a third party registered, a warning; Allow or Deny. The CSRF
 * token is bound to the browser session and the request, so a form rendered for one person
 * cannot grant anything for another.
 */

/** The request `req` names, and the person it is for when this browser is signed in as them. */
async function consentVisit({ ctx, org, request }: Visit) {
  const pending = await pendingRequest(ctx.deps, org, queryValue(request, 'req'), request);
  const session = await browserSessionOf(ctx, org, request);
  return { pending, session: signedInFor(pending.request, session) ? session : null };
}

/** Nobody signed in for the request: the login page first, carrying it. */
const toLogin = ({ ctx, request, reply }: Visit, requestId: string) =>
  reply.redirect(pageLink(ctx, request, '/login', { req: requestId }), 303);

export const consentPage = hostedPage(
  { path: '/consent', summary: 'the consent page: what the client asks for, Allow or Deny' },
  async (visit) => {
    const { ctx, org, request, reply } = visit;
    const { pending, session } = await consentVisit(visit);
    if (session === null) return toLogin(visit, pending.request.id);
    const params = { req: pending.request.id };
    const resources = await consentResources(ctx.deps, org, pending, session.user.id);
    const body = consentView(textsOf(request), {
      action: pageLink(ctx, request, '/consent', params),
      csrf: ctx.csrf.token(request, reply, 'consent', [session.id, pending.request.id]),
      clientName: pending.client.name,
      email: session.user.email,
      scopes: scopesToShow(pending.request),
      resources,
      firstParty: pending.client.firstParty,
      redirectHost: new URL(answerDestination(pending)).host,
      documentHost: pending.client.metadataDocument ? new URL(pending.client.id).host : null,
    });
    return sendPage(reply, org.name, textsOf(request).t('consent.title'), body, {
      formTargets: formTargets(pending),
    });
  },
);

export const consent = hostedPage(
  {
    path: '/consent',
    summary: 'the person’s answer (`decision=allow` or `deny`): on to the client',
    form: ['csrf', 'decision'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const { pending, session } = await consentVisit(visit);
    if (session === null) return toLogin(visit, pending.request.id);
    if (!ctx.csrf.check(request, 'consent', [session.id, pending.request.id], form.csrf))
      return refuseForm(visit);
    const { decision } = form;
    if (!isDecision(decision)) return refuseUndecided(visit, 'consent.decision.missing');
    const outcome = await decideConsent(ctx.deps, org, pending, session, decision);
    return sendOutcome(ctx, org, request, reply, outcome, 303);
  },
);
