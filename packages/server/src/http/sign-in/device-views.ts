import type { Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';
import { allowOrDeny, askedItems, formOpening, notice } from './views.js';

/** The bodies of the device pages (RFC 8628 §3.3): enter the code, confirm, done, denied. */

export interface DeviceCodeView {
  action: string;
  csrf: string;
  /** What the field holds: the code of `verification_uri_complete`, or what was typed. */
  code: string;
  error: string | null;
}

export function deviceCodeView(texts: Texts, v: DeviceCodeView): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('device.title')}</h1>${notice(v.error)}
<p>${t('device.enter')}</p>
${formOpening(v.action, v.csrf)}
<label for="user_code">${t('device.code')}</label>
<input id="user_code" name="user_code" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="BCDF-GHJK" maxlength="32" required value="${v.code}">
<button type="submit">${t('device.continue')}</button>
</form>`;
}

export interface DeviceConfirmView {
  action: string;
  csrf: string;
  clientName: string;
  email: string;
  userCode: string;
  scopes: string[];
  resources: { name: string; identifier: string; scopes: string[] }[];
  firstParty: boolean;
  documentHost: string | null;
}

/**
 * RFC 8628 §5.4: the person is told that a device is asking, which application, and the code, so
 * a code someone else sent them (remote phishing) is seen for what it is before it is allowed.
 */
export function deviceConfirmView(texts: Texts, v: DeviceConfirmView): SafeHtml {
  const { t, r } = bound(texts);
  const items = askedItems(texts, v);
  return html`<h1>${t('device.confirm.title')}</h1>
<p>${r('device.confirm.asking', { client: html`<strong class="client-name">${v.clientName}</strong>`, email: html`<strong>${v.email}</strong>` })}</p>
<p>${r('device.confirm.code', { code: html`<strong class="user-code">${v.userCode}</strong>` })}</p>
<p class="error device-warning">${t('device.confirm.warning')}</p>
${v.documentHost ? html`<p class="document-host">${r('consent.document_host', { host: html`<strong>${v.documentHost}</strong>` })}</p>` : ''}
${items.length ? html`<p>${t('consent.asks')}</p><ul class="scopes">${items}</ul>` : html`<p>${t('consent.asks_identity')}</p>`}
${allowOrDeny(texts, v)}`;
}

export const deviceDoneView = (texts: Texts, clientName: string): SafeHtml =>
  html`<h1>${texts.t('device.done.title')}</h1>
<p class="notice" role="status">${bound(texts).r('device.done.notice', { client: html`<strong>${clientName}</strong>` })}</p>`;

export const deviceDeniedView = (texts: Texts, clientName: string): SafeHtml =>
  html`<h1>${texts.t('device.denied.title')}</h1>
<p class="notice" role="status">${bound(texts).r('device.denied.notice', { client: html`<strong>${clientName}</strong>` })}</p>`;
