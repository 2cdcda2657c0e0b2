import {
  type Connection,
  completeFederatedSignIn,
  FederationRefused,
  finishOidcSignIn,
  holdSamlAnswer,
  requireConnection,
  startOidcSignIn,
  startSamlSignIn,
  takeFederatedAnswer,
  type UpstreamIdentity,
} from '../../domain/federation/index.js';
import { pageLink, queryValue } from './context.js';
import { bindBrowser, boundBrowser } from './federation-binding.js';
import { continueView } from './federation-continue.js';
import { offerLinkPage } from './federation-link.js';
import { showRefusal } from './federation-refusal.js';
import { formTargets, pageRequest, pendingBinding } from './flow.js';
import { hostedPage, type Visit } from './hosted-page.js';
import { textsOf } from './page-texts.js';
import { sendPage } from './respond.js';
import { sendSignIn } from './session-start.js';

/**
 * Enterprise sign-in on the hosted pages (DESIGN §17): a button per connection on the login page,
 * email-domain discovery, the way out to the upstream and the way back (OIDC callback, SAML ACS
 * and its continue step; each SAML connection's SP metadata is an operation, saml-metadata.ts). Whatever goes wrong upstream
 * ends on the login page with the reason, never an error page of the server. The way back goes on
 * only in the browser that went out (federation-binding.ts).
 */

/** Signs the person in as the user the upstream vouched for, and goes on with the request. */
async function signInFederated(
  visit: Visit,
  c: Connection,
  answer: { identity: UpstreamIdentity; requestId: string | null },
) {
  const { ctx, org, request, reply } = visit;
  const completed = await completeFederatedSignIn(ctx.deps, org, c, answer);
  if ('prove' in completed) return offerLinkPage(visit, c, answer, completed.prove);
  return sendSignIn(ctx, org, request, reply, completed);
}

const notSaml = () =>
  new FederationRefused('federation.connection.not_saml', 'This connection does not use SAML.', 400);

/** A refusal of the way out or back, on the login page (with the authorization request, if known). */
const refused = ({ ctx, org, request, reply }: Visit, requestId: string | null, error: unknown) =>
  showRefusal(ctx, org, request, reply, requestId, error);

const notOidc = () =>
  new FederationRefused(
    'federation.connection.not_oidc',
    'This connection does not use OpenID Connect.',
    400,
  );

export const federationStart = hostedPage(
  { path: '/sso/:con/start', summary: 'enterprise sign-in: the way out to the provider' },
  async (visit) => {
    const { ctx, org, request, reply, params } = visit;
    const c = await requireConnection(ctx.deps, org, params.con);
    const { pending } = await pageRequest(visit);
    const requestId = pending === null ? null : pendingBinding(pending);
    try {
      const binding = bindBrowser(ctx, request, reply);
      const loginHint = queryValue(request, 'login_hint') ?? null;
      const url =
        c.type === 'oidc'
          ? await startOidcSignIn(ctx.deps, org, c, { requestId, loginHint, binding })
          : await startSamlSignIn(ctx.deps, org, c, { requestId, binding });
      return reply.header('cache-control', 'no-store').redirect(url, 303);
    } catch (error) {
      return refused(visit, requestId, error);
    }
  },
);

export const oidcCallback = hostedPage(
  {
    path: '/sso/:con/callback',
    summary: 'enterprise sign-in: the OpenID provider’s way back',
  },
  async (visit) => {
    const { ctx, org, request, params } = visit;
    const c = await requireConnection(ctx.deps, org, params.con);
    if (c.type !== 'oidc') return refused(visit, null, notOidc());
    const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
    let answer: Awaited<ReturnType<typeof finishOidcSignIn>> | null = null;
    try {
      answer = await finishOidcSignIn(ctx.deps, org, c, query, boundBrowser(ctx, request));
      return await signInFederated(visit, c, answer);
    } catch (error) {
      return refused(visit, answer?.requestId ?? null, error);
    }
  },
);

/** The page sending a held SAML answer on to /sso/{con}/continue, in the browser that started. */
function sendContinue(visit: Visit, c: Connection, held: Awaited<ReturnType<typeof holdSamlAnswer>>) {
  const { ctx, org, request, reply } = visit;
  const action = pageLink(ctx, request, `/sso/${c.id}/continue`, {});
  const texts = textsOf(request);
  return sendPage(
    reply,
    org.name,
    texts.t('federation.continue.title'),
    continueView(texts, action, held.answerId),
    {
      scripts: true,
      formTargets: formTargets(held.pending),
    },
  );
}

/**
 * The IdP's answer, posted cross-site (no SameSite cookie comes with it): verified here, then
 * kept for the browser that started the sign-in, which the continue page sends on to
 * /sso/{con}/continue with its cookies.
 */
export const samlAcs = hostedPage(
  {
    path: '/saml/:con/acs',
    summary: 'enterprise sign-in: the SAML identity provider’s answer (assertion consumer service)',
    form: ['SAMLResponse'],
  },
  async (visit) => {
    const { ctx, org, params, form } = visit;
    const c = await requireConnection(ctx.deps, org, params.con);
    if (c.type !== 'saml') return refused(visit, null, notSaml());
    try {
      return sendContinue(visit, c, await holdSamlAnswer(ctx.deps, org, c, form.SAMLResponse));
    } catch (error) {
      return refused(visit, null, error);
    }
  },
);

/** The continue page's POST: same-site, so the binding cookie decides whose answer it is. */
export const samlContinue = hostedPage(
  {
    path: '/sso/:con/continue',
    summary: 'enterprise sign-in: the held SAML answer, taken in the browser that started',
    form: ['answer'],
  },
  async (visit) => {
    const { ctx, org, request, params, form } = visit;
    const c = await requireConnection(ctx.deps, org, params.con);
    if (c.type !== 'saml') return refused(visit, null, notSaml());
    let answer: Awaited<ReturnType<typeof takeFederatedAnswer>> | null = null;
    try {
      answer = await takeFederatedAnswer(ctx.deps, c.id, form.answer, boundBrowser(ctx, request));
      return await signInFederated(visit, c, answer);
    } catch (error) {
      return refused(visit, answer?.requestId ?? null, error);
    }
  },
);
