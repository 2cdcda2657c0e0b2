import { requireUser } from '../../domain/directory/index.js';
import { listUserPasskeys, removePasskey } from '../../domain/sign-in/index.js';
import { queryValue } from '../sign-in/context.js';
import { hostedPage } from '../sign-in/hosted-page.js';
import { textsOf } from '../sign-in/page-texts.js';
import { showProfile } from './profile.js';
import { PASSKEY_REMOVE_FORM, PASSKEY_REMOVE_PATH, PASSKEYS_PATH } from './profile-passkeys-section.js';
import { profileFormUser, profileUserOf, sendProfileExpired } from './profile-visit.js';

/*
 * The profile page's passkey pages: GET /profile/passkeys?added=… shows the page with what was
 * added (by passkeyRegistration, profile-passkeys.ts); POST /profile/passkeys/remove (a plain
 * form) removes one. Each change is audited.
 */

export const profilePasskeysPage = hostedPage(
  { path: PASSKEYS_PATH, summary: 'the profile page, naming the passkey just added' },
  async (visit) => {
    const { ctx, org, request } = visit;
    const userId = profileUserOf(ctx, org, request);
    if (userId === null) return sendProfileExpired(visit);
    const user = await requireUser(ctx.deps, userId);
    const added = queryValue(request, 'added');
    const passkey = (await listUserPasskeys(ctx.deps, user.id)).find((p) => p.id === added);
    const notice = passkey ? textsOf(request).t('passkeys.added_notice', { name: passkey.name }) : undefined;
    return showProfile(visit, user, notice === undefined ? {} : { notice });
  },
);

export const profilePasskeyRemove = hostedPage(
  {
    path: PASSKEY_REMOVE_PATH,
    summary: 'remove one of the person’s passkeys',
    form: ['csrf', 'passkey'],
  },
  async (visit) => {
    const { ctx, org, request, form } = visit;
    const caller = profileFormUser(visit, PASSKEY_REMOVE_FORM, form.csrf);
    if ('done' in caller) return caller.done;
    const user = await requireUser(ctx.deps, caller.userId);
    const removed = await removePasskey(ctx.deps, org, user, form.passkey);
    const texts = textsOf(request);
    if (removed === null)
      return showProfile(visit, user, { error: texts.t('passkeys.already_removed'), status: 404 });
    return showProfile(visit, user, { notice: texts.t('passkeys.removed_notice', { name: removed.name }) });
  },
);
