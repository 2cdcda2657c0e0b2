import type { MessageKey, Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';

/** The bodies of the hosted pages. Pure functions of their inputs; `html` escapes every value. */

export const notice = (error: string | null, kind = 'error') =>
  error ? html`<p class="${kind}" role="alert">${error}</p>` : '';

/** A form posted back to `action`, opened with its CSRF token: its fields and `</form>` follow. */
export const formOpening = (action: string, csrf: string) =>
  html`<form method="post" action="${action}">
<input type="hidden" name="csrf" value="${csrf}">`;

/** First and last name, as the sign-up and profile forms both ask for them. */
const nameFields = (texts: Texts, v: { firstName: string; lastName: string }) =>
  html`<label for="first_name">${texts.t('signup.first_name')}</label>
<input id="first_name" name="first_name" autocomplete="given-name" value="${v.firstName}">
<label for="last_name">${texts.t('signup.last_name')}</label>
<input id="last_name" name="last_name" autocomplete="family-name" value="${v.lastName}">`;

export interface LoginView {
  action: string;
  csrf: string;
  email: string;
  error: string | null;
  signupHref: string | null;
  /** "Forgot password?" (password-reset.ts). */
  forgotHref?: string | null;
  /** "Sign in with a passkey", below the form (passkey-views.ts loginPasskeyView). */
  passkey?: SafeHtml | null;
  /** "Sign in with …" per enterprise connection (federation-views.ts). */
  connections?: SafeHtml | null;
  /**
   * Some connection claims email domains: the password is not required to submit, since an
   * address in a claimed domain goes on to its identity provider.
   */
  discovery?: boolean;
}

export function loginView(texts: Texts, v: LoginView): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('login.title')}</h1>${notice(v.error)}
${formOpening(v.action, v.csrf)}
<label for="email">${t('login.email')}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email}">
<label for="password">${t('login.password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password"${v.discovery ? '' : html` required`}>
<button type="submit">${t('login.submit')}</button>
</form>
${v.passkey ?? ''}${v.connections ?? ''}
${v.forgotHref ? html`<p class="muted"><a href="${v.forgotHref}">${t('login.forgot')}</a></p>` : ''}
${v.signupHref ? html`<p class="muted">${t('login.new_here')} <a href="${v.signupHref}">${t('login.create_account')}</a></p>` : ''}`;
}

export interface SignupView {
  action: string;
  csrf: string;
  email: string;
  firstName: string;
  lastName: string;
  error: string | null;
  loginHref: string;
  /**
   * The email domains sign-up is open to, when the org limits it to some: then the form takes no
   * password and mails a link that finishes the account (mail/sign-up-links.ts).
   */
  domains: string[] | null;
}

export function signupView(texts: Texts, v: SignupView): SafeHtml {
  const { t } = bound(texts);
  const domains = v.domains?.map((d) => `@${d}`).join(', ');
  return html`<h1>${t('signup.title')}</h1>${notice(v.error)}
${domains ? html`<p class="muted sign-up-domains">${t('signup.domains', { domains })}</p>` : ''}
${formOpening(v.action, v.csrf)}
${nameFields(texts, v)}
<label for="email">${t('login.email')}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email}">
${
  domains
    ? html`<p class="muted">${t('signup.domains.mailed')}</p>
<button type="submit">${t('signup.send_link')}</button>`
    : html`<label for="password">${t('signup.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">${t('signup.submit')}</button>`
}
</form>
<p class="muted">${t('signup.have_account')} <a href="${v.loginHref}">${t('login.submit')}</a></p>`;
}

/** /signup of an org whose accounts are created by invitation only. */
export function signUpClosedView(texts: Texts, message: string, loginHref: string): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('signup.closed.title')}</h1><p class="error">${message}</p>
<p class="muted">${t('signup.have_account')} <a href="${loginHref}">${t('login.submit')}</a></p>`;
}

export interface ConsentView {
  action: string;
  csrf: string;
  clientName: string;
  email: string;
  scopes: string[];
  /** The API resources asked for (DESIGN §15): each with the descriptions of the scopes granted. */
  resources?: { name: string; identifier: string; scopes: string[] }[];
  firstParty: boolean;
  /** The host of the redirect URI the answer goes back to. */
  redirectHost: string;
  /** A metadata-document client (DESIGN §13): the host that publishes its description. */
  documentHost?: string | null;
}

/** The consent words of a scope (the management scopes' keys spell `:` as `_`); an unknown one as it is. */
export function scopeWords(texts: Texts, scope: string): string {
  const key = `scope.${scope.replace(':', '_')}`;
  return texts.has(key) ? texts.t(key as MessageKey) : scope;
}

/** The answer the consent and device pages ask for: Allow or Deny, said to be a third party's when it is. */
export function allowOrDeny(
  texts: Texts,
  v: { firstParty: boolean; action: string; csrf: string },
): SafeHtml {
  const { t } = bound(texts);
  return html`${v.firstParty ? '' : html`<p class="muted third-party">${t('consent.third_party')}</p>`}
${formOpening(v.action, v.csrf)}
<button type="submit" name="decision" value="allow">${t('consent.allow')}</button>
<button type="submit" name="decision" value="deny" class="secondary">${t('consent.deny')}</button>
</form>`;
}

/** What a request asks, as the consent and device pages list it: scopes, then API resources. */
export function askedItems(
  texts: Texts,
  v: { scopes: string[]; resources?: { name: string; identifier: string; scopes: string[] }[] },
): SafeHtml[] {
  const { r } = bound(texts);
  return [
    ...v.scopes.map((s) => html`<li>${scopeWords(texts, s)}</li>`),
    ...(v.resources ?? []).map(
      (res) =>
        html`<li class="resource">${r('consent.resource', {
          name: html`<strong>${res.name}</strong>`,
          identifier: html`<span class="resource-identifier">${res.identifier}</span>`,
        })}${
          res.scopes.length
            ? html`:<ul class="resource-scopes">${res.scopes.map((d) => html`<li>${d}</li>`)}</ul>`
            : ''
        }</li>`,
    ),
  ];
}

export function consentView(texts: Texts, v: ConsentView): SafeHtml {
  const { t, r } = bound(texts);
  const items = askedItems(texts, v);
  return html`<h1>${t('consent.title')}</h1>
<p>${r('consent.wants', { client: html`<strong>${v.clientName}</strong>`, email: html`<strong>${v.email}</strong>` })}</p>
${v.documentHost ? html`<p class="document-host">${r('consent.document_host', { host: html`<strong>${v.documentHost}</strong>` })}</p>` : ''}
${items.length ? html`<p>${t('consent.asks')}</p><ul class="scopes">${items}</ul>` : html`<p>${t('consent.asks_identity')}</p>`}
<p>${r('consent.answer_to', { host: html`<strong class="redirect-host">${v.redirectHost}</strong>` })}</p>
${allowOrDeny(texts, v)}`;
}

export interface ProfileView {
  action: string;
  csrf: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The other OIDC Core §5.1 claims (account/profile-claims.ts), in the same form below the names. */
  details?: SafeHtml;
  error: string | null;
  saved: boolean;
  notice?: string | null;
  /** The two-step verification section, below the names form. */
  secondFactor?: SafeHtml;
  /** The address and password forms (mail-views.ts credentialsSectionView). */
  credentials?: SafeHtml;
  /** The sign-out button, last (logout-views.ts). */
  signOut?: SafeHtml;
  /** The passkeys: list, add, remove (passkey-views.ts profilePasskeysView). */
  passkeys?: SafeHtml | null;
}

export function profileView(texts: Texts, v: ProfileView): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('profile.title')}</h1>${notice(v.error)}${v.saved ? notice(t('profile.saved'), 'notice') : ''}${notice(v.notice ?? null, 'notice')}
<p class="muted">${t('profile.signed_in_as', { email: v.email })}</p>
${formOpening(v.action, v.csrf)}
${nameFields(texts, v)}
${v.details ?? ''}
<button type="submit">${t('profile.save')}</button>
</form>
${v.credentials ?? ''}
${v.passkeys ?? ''}
${v.secondFactor ?? ''}${v.signOut ?? ''}`;
}

export function signedInView(texts: Texts, email: string): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('signed_in.heading')}</h1><p>${r('signed_in.as', { email: html`<strong>${email}</strong>` })}</p>
<p class="muted">${t('signed_in.close')}</p>`;
}
