import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../domain/directory/index.js';
import {
  finishPasskeyRegistration,
  listUserPasskeys,
  PASSKEY_NAME_MAX,
  passkeyName,
  type RegistrationResponseJSON,
  removePasskey,
  startPasskeyRegistration,
} from '../../domain/sign-in/index.js';
import { MAX_PASSKEYS_PER_USER } from '../../domain/tokens-policy.js';
import type { Org, User } from '../../domain/types.js';
import { jsonBody } from '../management/api-input.js';
import { noStore } from '../no-store.js';
import { orgOf } from '../org-routing.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from '../sign-in/context.js';
import { AttestationCredential, browserOf, refuse, refuseCsrf } from '../sign-in/passkeys.js';
import { CSRF_REJECTED, sendErrorPage } from '../sign-in/respond.js';
import { profileUserOf, renderProfile } from './profile.js';
import {
  PASSKEY_OPTIONS_PATH,
  PASSKEY_REGISTER_FORM,
  PASSKEY_REMOVE_FORM,
  PASSKEY_REMOVE_PATH,
  PASSKEYS_PATH,
} from './profile-passkeys-section.js';

const CLOSED = 'This profile page has expired. Open your profile again from the application.';
const TOO_MANY = `You already have ${MAX_PASSKEYS_PER_USER} passkeys. Remove one to add another.`;

const CsrfOnly = z.object({ csrf: z.string().max(200) });
const Registration = z.object({
  csrf: z.string().max(200),
  name: z.string().max(1000),
  credential: AttestationCredential,
});

const REFUSED = {
  expired: 'This passkey request has expired. Try again.',
  invalid: 'This passkey could not be added. Try again, or use another passkey.',
  duplicate: 'This passkey is already registered here.',
  too_many: TOO_MANY,
} as const;

/**
 * On the profile page: POST /profile/passkeys/options and POST /profile/passkeys (JSON, CSRF token
 * bound to the user) add a passkey; GET /profile/passkeys?added=… shows the page with what was
 * added; POST /profile/passkeys/remove (a plain form) removes one. Each change is audited.
 */
export function profilePasskeyPages(app: FastifyInstance, ctx: PageContext) {
  /** The profile's user for a JSON endpoint, or the refusal already sent. */
  async function jsonCaller(org: Org, request: FastifyRequest, reply: FastifyReply, csrf: string) {
    const userId = profileUserOf(ctx, org, request);
    if (userId === null) return { done: refuse(reply, 401, 'unauthorized', CLOSED) } as const;
    if (!ctx.csrf.check(request, PASSKEY_REGISTER_FORM, [userId], csrf))
      return { done: refuseCsrf(reply) } as const;
    return { user: await requireUser(ctx.deps, userId) } as const;
  }

  app.post(PASSKEY_OPTIONS_PATH, {
    onSend: noStore,
    handler: async (request, reply) => {
      const org = await orgOf(ctx.deps, request);
      const body = jsonBody('invalid_request', CsrfOnly, request.body);
      const caller = await jsonCaller(org, request, reply, body.csrf);
      if ('done' in caller) return caller.done;
      const outcome = await startPasskeyRegistration(ctx.deps, org, caller.user, browserOf(ctx, request));
      if (!outcome.ok) return refuse(reply, 409, 'conflict', TOO_MANY);
      return { options: outcome.options };
    },
  });

  app.post(PASSKEYS_PATH, {
    onSend: noStore,
    handler: async (request, reply) => {
      const org = await orgOf(ctx.deps, request);
      const body = jsonBody('invalid_request', Registration, request.body);
      const caller = await jsonCaller(org, request, reply, body.csrf);
      if ('done' in caller) return caller.done;
      const name = passkeyName(body.name);
      if (name === null) {
        return refuse(
          reply,
          400,
          'invalid_request',
          `Give the passkey a name of 1 to ${PASSKEY_NAME_MAX} characters.`,
        );
      }
      const outcome = await finishPasskeyRegistration(ctx.deps, org, caller.user, {
        name,
        response: body.credential as RegistrationResponseJSON,
        browser: browserOf(ctx, request),
      });
      if (!outcome.ok) {
        const status = outcome.reason === 'duplicate' || outcome.reason === 'too_many' ? 409 : 400;
        const code = status === 409 ? 'conflict' : 'invalid_request';
        return refuse(reply, status, code, REFUSED[outcome.reason]);
      }
      return { redirect: pageLink(ctx, request, PASSKEYS_PATH, { added: outcome.passkey.id }) };
    },
  });

  const show = (
    org: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    state: { error?: string; notice?: string; status?: number },
  ) =>
    renderProfile(ctx, org, request, reply, user, {
      error: state.error ?? null,
      saved: false,
      ...(state.notice ? { notice: state.notice } : {}),
      ...(state.status ? { status: state.status } : {}),
    });

  app.get(
    PASSKEYS_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const userId = profileUserOf(ctx, org, request);
      if (userId === null) return sendErrorPage(reply, org.name, 401, CLOSED);
      const user = await requireUser(ctx.deps, userId);
      const added = queryValue(request, 'added');
      const passkey = (await listUserPasskeys(ctx.deps, user.id)).find((p) => p.id === added);
      return show(org, request, reply, user, passkey ? { notice: `Passkey “${passkey.name}” added.` } : {});
    }),
  );

  app.post(
    PASSKEY_REMOVE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const userId = profileUserOf(ctx, org, request);
      if (userId === null) return sendErrorPage(reply, org.name, 401, CLOSED);
      if (!ctx.csrf.check(request, PASSKEY_REMOVE_FORM, [userId], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, CSRF_REJECTED);
      }
      const user = await requireUser(ctx.deps, userId);
      const removed = await removePasskey(ctx.deps, org, user, field(form, 'passkey'));
      if (removed === null) {
        return show(org, request, reply, user, { error: 'That passkey was already removed.', status: 404 });
      }
      return show(org, request, reply, user, { notice: `Passkey “${removed.name}” removed.` });
    }),
  );
}
