import type { MessageKey, Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';
import { formOpening, notice } from './views.js';

/** The bodies of the mail pages: forgot password, reset password, verify address. */

export interface ForgotView {
  action: string;
  csrf: string;
  email: string;
  error: string | null;
  loginHref: string;
}

export function forgotView(texts: Texts, v: ForgotView): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('forgot.heading')}</h1>${notice(v.error)}
<p>${t('forgot.intro')}</p>
${formOpening(v.action, v.csrf)}
<label for="email">${t('login.email')}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email}">
<button type="submit">${t('signup.send_link')}</button>
</form>
<p class="muted"><a href="${v.loginHref}">${t('forgot.back')}</a></p>`;
}

/** The same page whatever the address: it never says whether an account has it. */
export function forgotSentView(texts: Texts, v: { minutes: number; loginHref: string }): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('forgot.sent.title')}</h1>
<p class="notice" role="status">${t('forgot.sent.notice')}</p>
<p>${t('forgot.sent.validity', { minutes: v.minutes })}</p>
<p class="muted"><a href="${v.loginHref}">${t('forgot.back')}</a></p>`;
}

/** A mail link's password form (a reset, a sign-up): for the link's address, with what was wrong. */
export interface LinkPasswordView {
  action: string;
  csrf: string;
  token: string;
  email: string;
  error: string | null;
}

/** The words of a mail link's password form. */
interface LinkPasswordWords {
  title: MessageKey;
  for: MessageKey;
  password: MessageKey;
  again: MessageKey;
  submit: MessageKey;
}

/** The new password twice, the link's token and the page's CSRF token hidden. */
function linkPasswordView(texts: Texts, words: LinkPasswordWords, v: LinkPasswordView): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t(words.title)}</h1>${notice(v.error)}
<p class="muted">${t(words.for, { email: v.email })}</p>
${formOpening(v.action, v.csrf)}
<input type="hidden" name="token" value="${v.token}">
<label for="password">${t(words.password)}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<label for="password_confirm">${t(words.again)}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">${t(words.submit)}</button>
</form>`;
}

/** A reset link's page: the new password. */
export const resetView = (texts: Texts, v: LinkPasswordView): SafeHtml =>
  linkPasswordView(
    texts,
    {
      title: 'reset.title',
      for: 'reset.for',
      password: 'reset.password',
      again: 'reset.password_again',
      submit: 'reset.submit',
    },
    v,
  );

export function resetDoneView(texts: Texts, loginHref: string): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('reset.done.heading')}</h1>
<p class="notice" role="status">${t('reset.done.notice')}</p>
<p><a href="${loginHref}">${t('login.submit')}</a></p>`;
}

/** Which link a closed-link page is about. */
export type ClosedLink = 'reset' | 'verification' | 'sign_up';

/** A reset or verification link that is unknown, used, expired or for a previous address. */
export function linkClosedView(texts: Texts, what: ClosedLink, againHref: string | null): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('link.closed.heading')}</h1>
<p class="error">${t(`link.closed.${what}`)}</p>
${againHref ? html`<p><a href="${againHref}">${t('link.closed.again')}</a></p>` : html`<p class="muted">${t('link.closed.profile')}</p>`}`;
}

export function verifyView(
  texts: Texts,
  v: { action: string; csrf: string; token: string; email: string },
): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('verify.title')}</h1>
<p>${r('verify.text', { email: html`<strong>${v.email}</strong>` })}</p>
${formOpening(v.action, v.csrf)}
<input type="hidden" name="token" value="${v.token}">
<button type="submit">${t('verify.submit')}</button>
</form>`;
}

export function verifiedView(texts: Texts, email: string): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('verified.title')}</h1>
<p class="notice" role="status">${t('verified.notice', { email })}</p>`;
}

export interface CredentialsSection {
  emailAction: string;
  passwordAction: string;
  csrf: string;
  email: string;
  verified: boolean;
}

/** The profile page's address and password forms (below the names form). */
export function credentialsSectionView(texts: Texts, v: CredentialsSection): SafeHtml {
  const { t } = bound(texts);
  return html`<h2>${t('profile.email.title')}</h2>
<p>${v.email} · ${v.verified ? t('profile.email.confirmed') : html`<strong>${t('profile.email.not_confirmed')}</strong>`}</p>
${
  v.verified
    ? ''
    : html`${formOpening(v.emailAction, v.csrf)}
<input type="hidden" name="step" value="resend">
<button type="submit" class="secondary">${t('profile.email.resend')}</button>
</form>`
}
${formOpening(v.emailAction, v.csrf)}
<input type="hidden" name="step" value="change">
<label for="new_email">${t('profile.email.new')}</label>
<input id="new_email" name="email" type="email" autocomplete="email" required>
<label for="email_password">${t('profile.current_password')}</label>
<input id="email_password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="secondary">${t('profile.email.change')}</button>
</form>
<h2>${t('profile.password.title')}</h2>
${formOpening(v.passwordAction, v.csrf)}
<label for="current_password">${t('profile.current_password')}</label>
<input id="current_password" name="current_password" type="password" autocomplete="current-password" required>
<label for="new_password">${t('profile.password.new')}</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit" class="secondary">${t('profile.password.change')}</button>
<p class="muted">${t('profile.password.effect')}</p>
</form>`;
}

/** After a `domains` sign-up: the same words whether or not the address has an account already. */
export function signUpSentView(texts: Texts, v: { minutes: number; loginHref: string }): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('signup.sent.title')}</h1>
<p class="notice" role="status">${t('signup.sent.notice')}</p>
<p>${t('signup.sent.validity', { hours: v.minutes / 60 })} ${t('signup.have_account')} <a href="${v.loginHref}">${t('login.submit')}</a>.</p>`;
}

/** A sign-up link's page: the password is chosen here, by whoever holds the mailbox. */
export const signUpConfirmView = (texts: Texts, v: LinkPasswordView): SafeHtml =>
  linkPasswordView(
    texts,
    {
      title: 'signup.finish.title',
      for: 'signup.finish.for',
      password: 'signup.password',
      again: 'signup.password_again',
      submit: 'signup.submit',
    },
    v,
  );
