import type { Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';
import { formOpening } from './views.js';

/** A "Sign in with …" link per connection, below the login form. */
export function connectionButtonsView(
  texts: Texts,
  buttons: { name: string; href: string }[],
): SafeHtml | null {
  if (buttons.length === 0) return null;
  return html`<div class="sso-list">${buttons.map(
    (b) => html`<a class="sso" href="${b.href}">${texts.t('login.connection', { connection: b.name })}</a>`,
  )}</div>`;
}

/** After an upstream sign-in that must prove an existing account first (account-link-proofs.ts). */
export function linkSentView(
  texts: Texts,
  v: { email: string; connection: string; minutes: number },
): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('federation.link_sent.title')}</h1>
<p>${r('federation.link_sent.exists', { email: html`<strong>${v.email}</strong>` })}</p>
<p class="notice" role="status">${t('federation.link_sent.notice', { connection: v.connection, email: v.email, minutes: v.minutes })}</p>
<p class="muted">${t('federation.link_sent.effect', { connection: v.connection })}</p>`;
}

/** A mailed link opened in its browser: a button, so a mail scanner following links spends nothing. */
export function linkConfirmView(
  texts: Texts,
  v: {
    action: string;
    csrf: string;
    token: string;
    email: string;
    connection: string;
  },
): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('federation.link.title', { connection: v.connection })}</h1>
<p>${r('federation.link.text', { email: html`<strong>${v.email}</strong>`, connection: v.connection })}</p>
<p class="muted">${t('federation.link.effect')}</p>
${formOpening(v.action, v.csrf)}
<input type="hidden" name="token" value="${v.token}">
<button type="submit">${t('federation.link.submit')}</button>
</form>`;
}
