import type { Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';
import { formOpening } from './views.js';

/** The bodies of the sign-out pages (RP-Initiated Logout and the profile page's button). */

/** What the confirmation carries to the POST: the checked request, never the ID token itself. */
export interface LogoutFields {
  clientId: string | null;
  postLogoutRedirectUri: string | null;
  state: string | null;
}

const hidden = (name: string, value: string | null) =>
  value === null ? '' : html`<input type="hidden" name="${name}" value="${value}">`;

export interface LogoutConfirmView extends LogoutFields {
  action: string;
  csrf: string;
  email: string;
  clientName: string | null;
}

/** Sign-out asked for without proof of who asks (no matching `id_token_hint`): the person decides. */
export function logoutConfirmView(texts: Texts, v: LogoutConfirmView): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('logout.title')}</h1>
<p>${v.clientName ? html`${r('logout.asks', { client: html`<strong>${v.clientName}</strong>` })} ` : ''}${r('logout.signed_in_as', { email: html`<strong>${v.email}</strong>` })}</p>
${formOpening(v.action, v.csrf)}
${hidden('client_id', v.clientId)}${hidden('post_logout_redirect_uri', v.postLogoutRedirectUri)}${hidden('state', v.state)}
<button type="submit" name="confirm" value="yes">${t('logout.submit')}</button>
</form>
<p class="muted">${t('logout.not_you')}</p>`;
}

/**
 * The signed-out page. `frames`: the front-channel logout URLs of the applications signed out
 * (hidden frames, OIDC Front-Channel Logout 1.0); `next`: where the browser goes after them.
 */
export function signedOutView(texts: Texts, v: { frames?: string[]; next?: string | null } = {}): SafeHtml {
  const { t } = bound(texts);
  const frames = (v.frames ?? []).map(
    (src) => html`<iframe hidden src="${src}" title="${t('signed_out.frame')}"></iframe>`,
  );
  const next = v.next ?? null;
  return html`<h1>${t('signed_out.heading')}</h1>
<p>${t('signed_out.text')}</p>
${frames}${next === null ? html`<p class="muted">${t('signed_out.close')}</p>` : html`<p><a href="${next}">${t('signed_out.continue')}</a></p>`}`;
}

/** The profile page's sign-out button. */
export function signOutSectionView(texts: Texts, v: { action: string; csrf: string }): SafeHtml {
  const { t } = bound(texts);
  return html`<h2>${t('sign_out.section')}</h2>
<p class="muted">${t('sign_out.section.text')}</p>
${formOpening(v.action, v.csrf)}
<button type="submit" name="confirm" value="yes" class="secondary">${t('logout.submit')}</button>
</form>`;
}
