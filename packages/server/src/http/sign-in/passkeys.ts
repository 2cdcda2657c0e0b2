import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  type AuthenticationResponseJSON,
  finishPasskeySignIn,
  type PendingAuthorization,
  passkeySignInMethod,
  startPasskeySignIn,
} from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { hostOverride } from '../host-override.js';
import { jsonBody } from '../management/api-input.js';
import { noStore } from '../no-store.js';
import { orgOf } from '../org-routing.js';
import { type PageContext, pageLink, queryValue } from './context.js';
import { nextStepLink, optionalRequest, requestParams } from './flow.js';
import type { SafeHtml } from './html.js';
import { PASSKEY_SCRIPT } from './passkey-script.js';
import { loginPasskeyView } from './passkey-views.js';
import { CSRF_REJECTED } from './respond.js';
import { startSignedInSession } from './session-start.js';

/** The CSRF form name of the login page's passkey endpoints (bound to the authorization request). */
export const PASSKEY_SIGN_IN_FORM = 'passkey-sign-in';

const OPTIONS_PATH = '/login/passkey/options';
const VERIFY_PATH = '/login/passkey';

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** What a browser's `PublicKeyCredential` becomes as JSON (WebAuthn Level 3 `toJSON()`). */
const credentialShape = <R extends z.ZodRawShape>(response: R) =>
  z.object({
    id: base64url.min(1),
    rawId: base64url.min(1),
    type: z.literal('public-key'),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    response: z.object({ clientDataJSON: base64url.min(1), ...response }),
  });

export const AssertionCredential = credentialShape({
  authenticatorData: base64url.min(1),
  signature: base64url.min(1),
  userHandle: base64url.optional(),
});

export const AttestationCredential = credentialShape({
  attestationObject: base64url.min(1),
  authenticatorData: base64url.optional(),
  transports: z.array(z.string().max(32)).max(16).optional(),
  publicKeyAlgorithm: z.number().int().optional(),
  publicKey: base64url.optional(),
});

const CsrfOnly = z.object({ csrf: z.string().max(200) });
const SignInAnswer = z.object({ csrf: z.string().max(200), credential: AssertionCredential });

/** A JSON endpoint's refusal, in the API's body family, with words the page shows as they are. */
export function refuse(reply: FastifyReply, status: number, error: string, detail: string, extra = {}) {
  return reply.code(status).send({ error, error_detail: detail, ...extra });
}

/** What the passkey JSON endpoints say when their CSRF token is missing, stale or another's. */
export const refuseCsrf = (reply: FastifyReply) => refuse(reply, 403, 'forbidden', CSRF_REJECTED);

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
  pending: PendingAuthorization | null,
): SafeHtml | null {
  if (!passkeysOffered(ctx, request)) return null;
  const params = requestParams(pending);
  return loginPasskeyView({
    optionsUrl: pageLink(ctx, request, OPTIONS_PATH, params),
    verifyUrl: pageLink(ctx, request, VERIFY_PATH, params),
    csrf: ctx.csrf.token(request, reply, PASSKEY_SIGN_IN_FORM, [pending?.request.id ?? '']),
    script: PASSKEY_SCRIPT,
  });
}

const REFUSED: Record<'expired' | 'unknown' | 'invalid', string> = {
  expired: 'This passkey request has expired. Try again.',
  unknown: 'This passkey is not registered here. Sign in with your password, or use another passkey.',
  invalid: 'This passkey could not sign you in. Try again, or sign in with your password.',
};

/**
 * POST /login/passkey/options and POST /login/passkey (JSON, CSRF token bound to the authorization
 * request): the options of a discoverable sign-in, then its answer. A good answer starts the
 * browser session (PASSKEY_SIGN_IN, `user.login`) and names where the browser goes next.
 */
export function passkeySignInEndpoints(app: FastifyInstance, ctx: PageContext) {
  const checked = async (org: Org, request: FastifyRequest) => {
    const reqId = queryValue(request, 'req');
    const pending = await optionalRequest(ctx.deps, org, reqId);
    return { reqId: reqId ?? '', pending };
  };

  app.post(OPTIONS_PATH, {
    onSend: noStore,
    handler: async (request, reply) => {
      const org = await orgOf(ctx.deps, request);
      const body = jsonBody('invalid_request', CsrfOnly, request.body);
      const { reqId } = await checked(org, request);
      if (!ctx.csrf.check(request, PASSKEY_SIGN_IN_FORM, [reqId], body.csrf)) return refuseCsrf(reply);
      return { options: await startPasskeySignIn(ctx.deps, org, browserOf(ctx, request)) };
    },
  });

  app.post(VERIFY_PATH, {
    onSend: noStore,
    handler: async (request, reply) => {
      const org = await orgOf(ctx.deps, request);
      const body = jsonBody('invalid_request', SignInAnswer, request.body);
      const { reqId, pending } = await checked(org, request);
      if (!ctx.csrf.check(request, PASSKEY_SIGN_IN_FORM, [reqId], body.csrf)) return refuseCsrf(reply);
      const outcome = await finishPasskeySignIn(ctx.deps, org, {
        response: body.credential as AuthenticationResponseJSON,
        browser: browserOf(ctx, request),
      });
      if (!outcome.ok) {
        const extra = outcome.reason === 'unknown' ? { unknown_credential: true } : {};
        return refuse(reply, 400, 'invalid_request', REFUSED[outcome.reason], extra);
      }
      const method = passkeySignInMethod(outcome.passkey);
      const session = await startSignedInSession(ctx, org, reply, outcome.user, method);
      const redirect = pending
        ? await nextStepLink(ctx, org, request, pending, session)
        : pageLink(ctx, request, '/login', {});
      return { redirect };
    },
  });
}
