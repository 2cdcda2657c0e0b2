import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorSituation, fail } from '../../domain/errors.js';
import {
  decideDevice,
  deviceConfirmation,
  findByUserCode,
  isDeviceSignIn,
  loadPendingSignIn,
  type PendingDevice,
} from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { nameSituation } from '../error-code-header.js';
import {
  browserSessionOf,
  field,
  formOf,
  type PageContext,
  pageLink,
  pageRoute,
  queryValue,
} from './context.js';
import { deviceCodeView, deviceConfirmView, deviceDeniedView, deviceDoneView } from './device-views.js';
import { textsOf } from './page-texts.js';
import { type PageOptions, sendErrorPage, sendPage, throttledPage } from './respond.js';

/** The path of the device pages (RFC 8628 `verification_uri`), under the org's issuer. */
export const DEVICE_PATH = '/device';

/** The device authorization `req` names, pending; else the page explaining it is gone. */
async function pendingDevice(ctx: PageContext, org: Org, id: string | undefined): Promise<PendingDevice> {
  const pending = id === undefined ? null : await loadPendingSignIn(ctx.deps, org, id);
  if (pending === null || !isDeviceSignIn(pending))
    return fail('sign_in.request.expired', 'This device request has expired or was already answered.');
  return pending;
}

function renderCodeForm(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  state: { code: string; error: string | null; situation?: ErrorSituation },
  options: PageOptions = {},
) {
  if (state.situation !== undefined) nameSituation(reply, state.situation);
  const body = deviceCodeView(textsOf(request), {
    action: pageLink(ctx, request, DEVICE_PATH, {}),
    csrf: ctx.csrf.token(request, reply, 'device-code', []),
    code: state.code,
    error: state.error,
  });
  return sendPage(reply, org.name, textsOf(request).t('device.title'), body, options);
}

/**
 * The device pages (RFC 8628 §3.3), hosted pages like the others (layout, CSP, CSRF):
 * - GET /device: the code form (`user_code` fills it: `verification_uri_complete`, still to be sent
 *   by the person); with `req`, the confirmation of that device authorization for the person
 *   signed in, or the login page first, carrying it (a pending sign-in of its own kind).
 * - POST /device: a typed code, throttled per address and per code; a right one goes on to the
 *   confirmation (through sign-in when nobody is signed in).
 * - POST /device/confirm: Allow or Deny, by the person signed in, with a token bound to the browser
 *   session and the device authorization; answered by the done or denied page.
 */
export function devicePages(app: FastifyInstance, ctx: PageContext) {
  app.get(
    DEVICE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const reqId = queryValue(request, 'req');
      if (reqId === undefined) {
        const code = (queryValue(request, 'user_code') ?? '').slice(0, 32);
        return renderCodeForm(ctx, org, request, reply, { code, error: null });
      }
      const pending = await pendingDevice(ctx, org, reqId);
      const params = { req: pending.device.id };
      const session = await browserSessionOf(ctx, org, request);
      if (session === null) return reply.redirect(pageLink(ctx, request, '/login', params), 303);
      const shown = await deviceConfirmation(ctx.deps, org, pending, session.user.id);
      const body = deviceConfirmView(textsOf(request), {
        action: pageLink(ctx, request, `${DEVICE_PATH}/confirm`, params),
        csrf: ctx.csrf.token(request, reply, 'device-confirm', [session.id, pending.device.id]),
        email: session.user.email,
        ...shown,
      });
      return sendPage(reply, org.name, textsOf(request).t('device.confirm.title'), body);
    }),
  );

  app.post(
    DEVICE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      if (!ctx.csrf.check(request, 'device-code', [], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const typed = field(form, 'user_code').slice(0, 32);
      const found = await findByUserCode(ctx.deps, org, typed, rateLimitKey(request));
      if (found.ok) {
        const next = pageLink(ctx, request, DEVICE_PATH, { req: found.pending.device.id });
        return reply.redirect(next, 303);
      }
      if (found.reason === 'throttled') {
        const { error, options } = throttledPage(textsOf(request), found.retryAfterS, 'throttled.codes');
        const state = { code: typed, error, situation: 'device.user_code.throttled' } as const;
        return renderCodeForm(ctx, org, request, reply, state, options);
      }
      const state = {
        code: typed,
        error: textsOf(request).t('device.invalid_code'),
        situation: 'device.user_code.invalid',
      } as const;
      return renderCodeForm(ctx, org, request, reply, state, { status: 400 });
    }),
  );

  app.post(
    `${DEVICE_PATH}/confirm`,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const pending = await pendingDevice(ctx, org, queryValue(request, 'req'));
      const session = await browserSessionOf(ctx, org, request);
      if (session === null) {
        return reply.redirect(pageLink(ctx, request, '/login', { req: pending.device.id }), 303);
      }
      if (!ctx.csrf.check(request, 'device-confirm', [session.id, pending.device.id], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const decision = field(form, 'decision');
      if (decision !== 'allow' && decision !== 'deny') {
        return sendErrorPage(
          reply,
          org.name,
          400,
          textsOf(request).t('consent.choose'),
          'device.decision.missing',
        );
      }
      const decided = await decideDevice(ctx.deps, org, pending, session, decision);
      const body =
        decided === 'approved'
          ? deviceDoneView(textsOf(request), pending.client.name)
          : deviceDeniedView(textsOf(request), pending.client.name);
      const title = textsOf(request).t(decided === 'approved' ? 'device.done.title' : 'device.denied.title');
      return sendPage(reply, org.name, title, body);
    }),
  );
}
