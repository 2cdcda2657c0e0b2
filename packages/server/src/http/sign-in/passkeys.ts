import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type ErrorSituation, ServiceError } from '../../domain/errors.js';
import {
  type AuthenticationResponseJSON,
  completeAuthentication,
  finishPasskeySignIn,
  type PendingSignIn,
  passkeySignInMethod,
  relyingPartyIsShared,
  startPasskeySignIn,
} from '../../domain/sign-in/index.js';
import type { MessageKey } from '../../domain/texts/index.js';
import type { Org } from '../../domain/types.js';
import { nameSituation } from '../error-code-header.js';
import { hostOverride } from '../host-override.js';
import { jsonBody } from '../management/api-input.js';
import { noStore } from '../no-store.js';
import type { Operation, ResponseSpec } from '../openapi/operation.js';
import { orgOf } from '../org-routing.js';
import { operation, type ServedOperation } from '../served-operation.js';
import { type PageContext, pageLink, queryValue } from './context.js';
import { optionalRequest, outcomeLink, pendingBinding, requestParams } from './flow.js';
import type { SafeHtml } from './html.js';
import { negotiatePageTexts, situationText, textsOf } from './page-texts.js';
import {
  PasskeyNext,
  PasskeyOptions,
  PasskeyOptionsRequest,
  PasskeyRefusal,
  PasskeySignInQuery,
  PasskeySignInRequest,
} from './passkey-schemas.js';
import { PASSKEY_SCRIPT } from './passkey-script.js';
import { loginPasskeyView } from './passkey-views.js';
import { keepSignIn } from './session-start.js';

/** The CSRF form name of the login page's passkey endpoints (bound to the authorization request). */
export const PASSKEY_SIGN_IN_FORM = 'passkey-sign-in';

const OPTIONS_PATH = '/login/passkey/options';
const VERIFY_PATH = '/login/passkey';

/**
 * A JSON endpoint's refusal, in the API's body family, with words the page shows as they are: the
 * situation's protocol error and status, and its code in the header.
 */
export function refuse(reply: FastifyReply, situation: ErrorSituation, detail: string, extra = {}) {
  const refusal = new ServiceError(situation, detail);
  return nameSituation(reply.code(refusal.status), situation).send({
    error: refusal.code,
    error_detail: detail,
    ...extra,
  });
}

/** What the passkey JSON endpoints say when their CSRF token is missing, stale or another's. */
export const refuseCsrf = (reply: FastifyReply) =>
  refuse(reply, 'page.csrf.rejected', textsOf(reply.request).t('error.csrf'));

/** The browser a ceremony is bound to: its CSRF cookie value ('' when it has none). */
export const browserOf = (ctx: PageContext, request: FastifyRequest): string =>
  ctx.cookies.read(request, ctx.cookies.csrf) ?? '';

/** Passkeys need the page's own host as relying party: not offered through the loopback `host` override. */
export const passkeysOffered = (ctx: PageContext, request: FastifyRequest): boolean =>
  hostOverride(ctx.deps.config, request) === null;

/** The login page's "Sign in with a passkey" (empty where passkeys cannot work). */
export function loginPasskeySection(
  ctx: PageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  pending: PendingSignIn | null,
): SafeHtml | null {
  if (!passkeysOffered(ctx, request)) return null;
  const params = requestParams(pending);
  return loginPasskeyView(textsOf(request), {
    optionsUrl: pageLink(ctx, request, OPTIONS_PATH, params),
    verifyUrl: pageLink(ctx, request, VERIFY_PATH, params),
    csrf: ctx.csrf.token(request, reply, PASSKEY_SIGN_IN_FORM, [pendingBinding(pending)]),
    script: PASSKEY_SCRIPT,
  });
}

/** What the page's script shows for a refused passkey, in the page's language. */
const REFUSED = {
  expired: 'passkeys.refused.expired',
  unknown: 'passkeys.refused.unknown',
  invalid: 'passkeys.refused.sign_in',
} as const satisfies Record<'expired' | 'unknown' | 'invalid', MessageKey>;

const REFUSED_AS = {
  expired: 'passkey.sign_in.expired',
  unknown: 'passkey.sign_in.unknown',
  invalid: 'passkey.sign_in.invalid',
} as const satisfies Record<keyof typeof REFUSED, ErrorSituation>;

/** A refusal of the passkey endpoints, documented. */
export const passkeyRefusal = (description: string): ResponseSpec => ({
  description,
  schema: PasskeyRefusal,
});

/**
 * A JSON endpoint a page's passkey script posts to (the login page's, the profile page's): its body
 * read by `schema` (else 400 `invalid_request`), the org and the language of the page that calls it
 * negotiated as the page's was (its `req`, the switcher's cookie, the user's, the browser's), for the
 * words of its refusals; never stored. The page's CSRF token, in the body, is the endpoint's to check.
 */
export function passkeyEndpoint<S extends z.ZodType>(
  declaration: Omit<Operation, 'method' | 'hosts' | 'auth' | 'body'>,
  schema: S,
  handle: (
    ctx: PageContext,
    org: Org,
    body: z.output<S>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<unknown>,
): ServedOperation {
  return operation(
    {
      ...declaration,
      method: 'post',
      hosts: 'every',
      auth: 'none',
      body: { contentType: 'application/json', schema },
    },
    ({ pages: ctx }) => ({
      onSend: [noStore],
      handler: async (request, reply) => {
        const org = await orgOf(ctx.deps, request);
        await negotiatePageTexts(ctx, org, request, reply);
        return handle(ctx, org, jsonBody('invalid_request', schema, request.body), request, reply);
      },
    }),
  );
}

/** What the login page's two passkey endpoints share in the document. */
const signInEndpoint = {
  tag: 'sign-in',
  // The login page's CSRF token, bound to its authorization request and the browser's cookie.
  query: PasskeySignInQuery,
} as const satisfies Partial<Operation>;

/**
 * The authorization request the page names (`req`), if any: an unknown or used one is refused in these
 * endpoints' body (`error`, `error_detail` in the page's language), which the page's script shows,
 * not in a page's or OAuth's.
 */
const pendingOf = async (ctx: PageContext, org: Org, request: FastifyRequest, reply: FastifyReply) => {
  const reqId = queryValue(request, 'req');
  try {
    return { reqId: reqId ?? '', pending: await optionalRequest(ctx.deps, org, reqId) };
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status >= 500) throw error;
    const words = situationText(textsOf(request), error.situation, error.detail);
    return { refused: refuse(reply, error.situation, words) };
  }
};

/**
 * POST /login/passkey/options (JSON, CSRF token bound to the authorization request): the options of
 * a discoverable sign-in, for the login page's script (passkey-script.ts).
 */
export const passkeySignInOptions = passkeyEndpoint(
  {
    ...signInEndpoint,
    path: OPTIONS_PATH,
    operationId: 'passkeySignInOptions',
    summary: 'Passkey sign-in, step 1: the WebAuthn request options (the login page’s script)',
    responses: {
      200: { description: 'the options to pass to `navigator.credentials.get()`', schema: PasskeyOptions },
      400: passkeyRefusal('`invalid_request`: a malformed body, or an expired or used `req`'),
      403: passkeyRefusal('`forbidden`: the CSRF token is missing, stale or another page’s'),
    },
  },
  PasskeyOptionsRequest,
  async (ctx, org, body, request, reply) => {
    const found = await pendingOf(ctx, org, request, reply);
    if ('refused' in found) return found.refused;
    const { reqId } = found;
    if (!ctx.csrf.check(request, PASSKEY_SIGN_IN_FORM, [reqId], body.csrf)) return refuseCsrf(reply);
    return { options: await startPasskeySignIn(ctx.deps, org, browserOf(ctx, request)) };
  },
);

/**
 * POST /login/passkey (JSON, CSRF token bound to the authorization request): the browser's answer
 * to the options. A good answer starts the browser session (PASSKEY_SIGN_IN, `user.login`) and
 * names where the browser goes next.
 */
export const passkeySignIn = passkeyEndpoint(
  {
    ...signInEndpoint,
    path: VERIFY_PATH,
    operationId: 'passkeySignIn',
    summary: 'Passkey sign-in, step 2: the browser’s answer; starts the browser session',
    responses: {
      200: {
        description: 'signed in (the session cookie is set): where the browser goes next',
        schema: PasskeyNext,
        headers: { 'set-cookie': 'the browser session' },
      },
      400: passkeyRefusal(
        '`invalid_request`: a malformed body, an expired or used `req`, or a passkey that cannot sign in ' +
          '(`unknown_credential` when it is not registered here and no other org shares the host, so ' +
          'the page may ask the browser to forget it)',
      ),
      403: passkeyRefusal('`forbidden`: the CSRF token is missing, stale or another page’s'),
    },
  },
  PasskeySignInRequest,
  async (ctx, org, body, request, reply) => {
    const found = await pendingOf(ctx, org, request, reply);
    if ('refused' in found) return found.refused;
    const { reqId, pending } = found;
    if (!ctx.csrf.check(request, PASSKEY_SIGN_IN_FORM, [reqId], body.csrf)) return refuseCsrf(reply);
    const outcome = await finishPasskeySignIn(ctx.deps, org, {
      response: body.credential as AuthenticationResponseJSON,
      browser: browserOf(ctx, request),
    });
    if (!outcome.ok) {
      // Not said where other orgs share the relying party: the browser would drop the passkey.
      const unknown = outcome.reason === 'unknown' && !relyingPartyIsShared(ctx.deps.config);
      const extra = unknown ? { unknown_credential: true } : {};
      return refuse(reply, REFUSED_AS[outcome.reason], textsOf(request).t(REFUSED[outcome.reason]), extra);
    }
    const proven = { user: outcome.user, method: passkeySignInMethod(outcome.passkey) };
    // The script navigates to the answer: a link (a form_post request goes through its login page).
    const completed = await completeAuthentication(ctx.deps, org, proven, pending, 'link');
    keepSignIn(ctx, org, reply, completed);
    return { redirect: outcomeLink(ctx, request, completed.outcome) };
  },
);
