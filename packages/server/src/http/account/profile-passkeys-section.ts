import type { FastifyReply, FastifyRequest } from 'fastify';
import { listUserPasskeys, PASSKEY_NAME_MAX } from '../../domain/sign-in/index.js';
import { MAX_PASSKEYS_PER_USER } from '../../domain/tokens-policy.js';
import type { User } from '../../domain/types.js';
import { type PageContext, pageLink } from '../sign-in/context.js';
import type { SafeHtml } from '../sign-in/html.js';
import { textsOf } from '../sign-in/page-texts.js';
import { PASSKEY_SCRIPT } from '../sign-in/passkey-script.js';
import { profilePasskeysView } from '../sign-in/passkey-views.js';
import { passkeysOffered } from '../sign-in/passkeys.js';

/** The CSRF form names of the profile page's passkey endpoints and removal form (bound to the user). */
export const PASSKEY_REGISTER_FORM = 'passkey-register';
export const PASSKEY_REMOVE_FORM = 'passkey-remove';

export const PASSKEYS_PATH = '/profile/passkeys';
export const PASSKEY_OPTIONS_PATH = '/profile/passkeys/options';
export const PASSKEY_REMOVE_PATH = '/profile/passkeys/remove';

/** The profile page's passkeys section (null where passkeys cannot work: the loopback host override). */
export async function passkeysSection(
  ctx: PageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<SafeHtml | null> {
  if (!passkeysOffered(ctx, request)) return null;
  const passkeys = await listUserPasskeys(ctx.deps, user.id);
  return profilePasskeysView(textsOf(request), {
    passkeys: passkeys.map((p) => ({ ...p, synced: p.deviceType === 'multiDevice' })),
    register:
      passkeys.length < MAX_PASSKEYS_PER_USER
        ? {
            optionsUrl: pageLink(ctx, request, PASSKEY_OPTIONS_PATH, {}),
            verifyUrl: pageLink(ctx, request, PASSKEYS_PATH, {}),
            csrf: ctx.csrf.token(request, reply, PASSKEY_REGISTER_FORM, [user.id]),
          }
        : null,
    removeAction: pageLink(ctx, request, PASSKEY_REMOVE_PATH, {}),
    removeCsrf: ctx.csrf.token(request, reply, PASSKEY_REMOVE_FORM, [user.id]),
    nameMax: PASSKEY_NAME_MAX,
    script: PASSKEY_SCRIPT,
  });
}
