import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '../../domain/directory/index.js';
import type { ErrorSituation } from '../../domain/errors.js';
import {
  finishPasskeyRegistration,
  PASSKEY_NAME_MAX,
  passkeyName,
  type RegistrationResponseJSON,
  startPasskeyRegistration,
} from '../../domain/sign-in/index.js';
import type { MessageKey } from '../../domain/texts/index.js';
import { MAX_PASSKEYS_PER_USER } from '../../domain/tokens-policy.js';
import type { Org } from '../../domain/types.js';
import { type PageContext, pageLink } from '../sign-in/context.js';
import { textsOf } from '../sign-in/page-texts.js';
import {
  PasskeyNext,
  PasskeyOptions,
  PasskeyOptionsRequest,
  PasskeyRegistrationRequest,
} from '../sign-in/passkey-schemas.js';
import { browserOf, passkeyEndpoint, passkeyRefusal, refuse, refuseCsrf } from '../sign-in/passkeys.js';
import { PASSKEY_OPTIONS_PATH, PASSKEY_REGISTER_FORM, PASSKEYS_PATH } from './profile-passkeys-section.js';
import { profileUserOf } from './profile-visit.js';

/** What the profile page's script shows for a refused passkey, in the page's language. */
const REFUSED = {
  expired: 'passkeys.refused.expired',
  invalid: 'passkeys.refused.register',
  duplicate: 'passkeys.refused.duplicate',
  too_many: 'passkeys.full',
} as const satisfies Record<string, MessageKey>;

const REFUSED_AS = {
  expired: 'passkey.register.expired',
  invalid: 'passkey.register.invalid',
  duplicate: 'passkey.register.duplicate',
  too_many: 'passkey.register.too_many',
} as const satisfies Record<keyof typeof REFUSED, ErrorSituation>;

/** The profile's user for a JSON endpoint, or the refusal already sent. */
async function jsonCaller(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  csrf: string,
) {
  const userId = profileUserOf(ctx, org, request);
  if (userId === null)
    return {
      done: refuse(reply, 'profile.page.expired', textsOf(reply.request).t('profile.expired')),
    } as const;
  if (!ctx.csrf.check(request, PASSKEY_REGISTER_FORM, [userId], csrf))
    return { done: refuseCsrf(reply) } as const;
  return { user: await requireUser(ctx.deps, userId) } as const;
}

// The profile page's two JSON endpoints: the profile page's cookie and its CSRF token, bound to the person.
const tag = 'account';
const CALLER_REFUSALS = {
  401: passkeyRefusal('`unauthorized`: the profile page has expired (no profile cookie)'),
  403: passkeyRefusal('`forbidden`: the CSRF token is missing, stale or another page’s'),
};

/**
 * POST /profile/passkeys/options (JSON, CSRF token bound to the user): the creation options of a new
 * passkey, for the profile page's script.
 */
export const passkeyRegistrationOptions = passkeyEndpoint(
  {
    tag,
    path: PASSKEY_OPTIONS_PATH,
    operationId: 'passkeyRegistrationOptions',
    summary: 'Adding a passkey, step 1: the WebAuthn creation options (the profile page’s script)',
    responses: {
      200: { description: 'the options to pass to `navigator.credentials.create()`', schema: PasskeyOptions },
      400: passkeyRefusal('`invalid_request`: a malformed body'),
      ...CALLER_REFUSALS,
      409: passkeyRefusal(`\`conflict\`: the person already has ${MAX_PASSKEYS_PER_USER} passkeys`),
    },
  },
  PasskeyOptionsRequest,
  async (ctx, org, body, request, reply) => {
    const caller = await jsonCaller(ctx, org, request, reply, body.csrf);
    if ('done' in caller) return caller.done;
    const outcome = await startPasskeyRegistration(ctx.deps, org, caller.user, browserOf(ctx, request));
    if (!outcome.ok) return refuse(reply, 'passkey.register.too_many', textsOf(request).t(REFUSED.too_many));
    return { options: outcome.options };
  },
);

/**
 * POST /profile/passkeys (JSON, CSRF token bound to the user): the browser's answer to the creation
 * options and the passkey's name. The passkey is added (audited) and the page shows it.
 */
export const passkeyRegistration = passkeyEndpoint(
  {
    tag,
    path: PASSKEYS_PATH,
    operationId: 'passkeyRegistration',
    summary: 'Adding a passkey, step 2: the browser’s answer and the passkey’s name',
    responses: {
      200: { description: 'added: the profile page that shows it', schema: PasskeyNext },
      400: passkeyRefusal(
        '`invalid_request`: a malformed body, a name out of bounds, or an answer that fails',
      ),
      ...CALLER_REFUSALS,
      409: passkeyRefusal(
        `\`conflict\`: the passkey is already registered, or the person has ${MAX_PASSKEYS_PER_USER}`,
      ),
    },
  },
  PasskeyRegistrationRequest,
  async (ctx, org, body, request, reply) => {
    const caller = await jsonCaller(ctx, org, request, reply, body.csrf);
    if ('done' in caller) return caller.done;
    const name = passkeyName(body.name);
    if (name === null) {
      const words = textsOf(request).t('passkeys.refused.name', { max: PASSKEY_NAME_MAX });
      return refuse(reply, 'passkey.name.invalid', words);
    }
    const outcome = await finishPasskeyRegistration(ctx.deps, org, caller.user, {
      name,
      response: body.credential as RegistrationResponseJSON,
      browser: browserOf(ctx, request),
    });
    if (!outcome.ok) {
      return refuse(reply, REFUSED_AS[outcome.reason], textsOf(request).t(REFUSED[outcome.reason]));
    }
    return { redirect: pageLink(ctx, request, PASSKEYS_PATH, { added: outcome.passkey.id }) };
  },
);
