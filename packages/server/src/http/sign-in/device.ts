import { type ErrorSituation, fail } from '../../domain/errors.js';
import {
  decideDevice,
  deviceConfirmation,
  findByUserCode,
  isDeviceSignIn,
  type PendingDevice,
} from '../../domain/sign-in/index.js';
import { rateLimitKey } from '../client-ip.js';
import { nameSituation } from '../error-code-header.js';
import { browserSessionOf, pageLink, queryValue } from './context.js';
import { isDecision, refuseUndecided } from './decision.js';
import { deviceCodeView, deviceConfirmView, deviceDeniedView, deviceDoneView } from './device-views.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { pendingOfPage } from './page-pending.js';
import { textsOf } from './page-texts.js';
import { type PageOptions, sendPage, throttledPage } from './respond.js';

/** The path of the device pages (RFC 8628 `verification_uri`), under the org's issuer. */
export const DEVICE_PATH = '/device';

/**
 * The device authorization `req` names, pending; else the page explaining it is gone. The read the
 * page's language and brand made already is reused (page-pending.ts).
 */
async function pendingDevice({ ctx, org, request }: Visit, id: string | undefined): Promise<PendingDevice> {
  const pending = id === undefined ? null : await pendingOfPage(ctx.deps, org, request, id);
  if (pending === null || !isDeviceSignIn(pending))
    return fail('sign_in.request.expired', 'This device request has expired or was already answered.');
  return pending;
}

/** The form taking the code the device shows, with what was wrong if anything. */
function renderCodeForm(
  { ctx, org, request, reply }: Visit,
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

/*
 * The device pages (RFC 8628 §3.3), hosted pages like the others (layout, CSP, CSRF):
 * - GET /device: the code form (`user_code` fills it: `verification_uri_complete`, still to be sent
 *   by the person); with `req`, the confirmation of that device authorization for the person
 *   signed in, or the login page first, carrying it (a pending sign-in of its own kind).
 * - POST /device: a typed code, throttled per address and per code; a right one goes on to the
 *   confirmation (through sign-in when nobody is signed in).
 * - POST /device/confirm: Allow or Deny, by the person signed in, with a token bound to the browser
 *   session and the device authorization; answered by the done or denied page.
 */

/** The confirmation of device authorization `reqId` for the person signed in, or the login page first. */
async function showConfirmation(visit: Visit, reqId: string) {
  const { ctx, org, request, reply } = visit;
  const pending = await pendingDevice(visit, reqId);
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
}

/** The done or denied page after the person's answer. */
function sendDecided({ org, request, reply }: Visit, decided: 'approved' | 'denied', clientName: string) {
  const texts = textsOf(request);
  const approved = decided === 'approved';
  const body = approved ? deviceDoneView(texts, clientName) : deviceDeniedView(texts, clientName);
  return sendPage(reply, org.name, texts.t(approved ? 'device.done.title' : 'device.denied.title'), body);
}

export const devicePage = hostedPage(
  {
    path: DEVICE_PATH,
    summary: 'the device code form, or (`req`) the confirmation of a device',
  },
  async (visit) => {
    const reqId = queryValue(visit.request, 'req');
    if (reqId !== undefined) return showConfirmation(visit, reqId);
    const code = (queryValue(visit.request, 'user_code') ?? '').slice(0, 32);
    return renderCodeForm(visit, { code, error: null });
  },
);

export const deviceCode = hostedPage(
  {
    path: DEVICE_PATH,
    summary: 'a typed device code (throttled): on to its confirmation',
    form: ['csrf', 'user_code'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    if (!ctx.csrf.check(request, 'device-code', [], form.csrf)) return refuseForm(visit);
    const typed = form.user_code.slice(0, 32);
    const found = await findByUserCode(ctx.deps, org, typed, rateLimitKey(request));
    if (found.ok)
      return reply.redirect(pageLink(ctx, request, DEVICE_PATH, { req: found.pending.device.id }), 303);
    if (found.reason === 'throttled') {
      const { error, options } = throttledPage(textsOf(request), found.retryAfterS, 'throttled.codes');
      return renderCodeForm(visit, { code: typed, error, situation: 'device.user_code.throttled' }, options);
    }
    const error = textsOf(request).t('device.invalid_code');
    return renderCodeForm(
      visit,
      { code: typed, error, situation: 'device.user_code.invalid' },
      { status: 400 },
    );
  },
);

export const deviceConfirm = hostedPage(
  {
    path: `${DEVICE_PATH}/confirm`,
    summary: 'the person’s answer for a device (`decision=allow` or `deny`)',
    form: ['csrf', 'decision'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const pending = await pendingDevice(visit, queryValue(request, 'req'));
    const session = await browserSessionOf(ctx, org, request);
    if (session === null)
      return reply.redirect(pageLink(ctx, request, '/login', { req: pending.device.id }), 303);
    if (!ctx.csrf.check(request, 'device-confirm', [session.id, pending.device.id], form.csrf)) {
      return refuseForm(visit);
    }
    const { decision } = form;
    if (!isDecision(decision)) return refuseUndecided(visit, 'device.decision.missing');
    const decided = await decideDevice(ctx.deps, org, pending, session, decision);
    return sendDecided(visit, decided, pending.client.name);
  },
);
