import type { Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';
import { formOpening } from './views.js';

/**
 * The passkey parts of the login and profile pages. Both stay inert without JavaScript: the
 * controls are inside `hidden` containers that /login/passkeys.js reveals only when the browser
 * has WebAuthn, and the endpoints they call are named in `data-` attributes (no inline script).
 */

/** Where the page's script is served (passkey-script.ts), with its version so caches follow changes. */
export interface PasskeyScript {
  src: string;
}

const script = (s: PasskeyScript) => html`<script src="${s.src}" defer></script>`;

/**
 * A message the script fills in when a ceremony fails (kept hidden until then), with the page's
 * words for a failure the server does not describe.
 */
const problemOf = (texts: Texts) =>
  html`<p class="error" role="alert" data-passkey-problem data-generic="${texts.t('passkeys.problem.generic')}" data-cancelled="${texts.t('passkeys.problem.cancelled')}" hidden></p>`;

export interface LoginPasskeyView {
  optionsUrl: string;
  verifyUrl: string;
  csrf: string;
  script: PasskeyScript;
}

/** "Sign in with a passkey" below the password form: discoverable, so no address is typed. */
export function loginPasskeyView(texts: Texts, v: LoginPasskeyView): SafeHtml {
  const { t } = bound(texts);
  return html`<div id="passkey-sign-in" data-options="${v.optionsUrl}" data-verify="${v.verifyUrl}" data-csrf="${v.csrf}" hidden>
<p class="muted">${t('login.passkey.or')}</p>
${problemOf(texts)}<button type="button" class="secondary">${t('login.passkey.button')}</button>
</div>
${script(v.script)}`;
}

export interface ProfilePasskey {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  synced: boolean;
}

export interface ProfilePasskeysView {
  passkeys: ProfilePasskey[];
  /** Adding one: the JSON endpoints and their CSRF token; null when no more may be added. */
  register: { optionsUrl: string; verifyUrl: string; csrf: string } | null;
  removeAction: string;
  removeCsrf: string;
  nameMax: number;
  script: PasskeyScript;
}

/** A day in the page's language (`passkeys.added`: `{date, date, medium}`), machine-readable too. */
const day = (texts: Texts, key: 'passkeys.added' | 'passkeys.last_used', ms: number) =>
  html`<time datetime="${new Date(ms).toISOString()}">${texts.t(key, { date: new Date(ms) })}</time>`;

function passkeyItem(texts: Texts, v: ProfilePasskeysView, p: ProfilePasskey): SafeHtml {
  const { t } = bound(texts);
  return html`<li class="passkey">
<strong>${p.name}</strong>
<span class="muted">${day(texts, 'passkeys.added', p.createdAt)} · ${p.lastUsedAt === null ? t('passkeys.never_used') : day(texts, 'passkeys.last_used', p.lastUsedAt)}${p.synced ? ` · ${t('passkeys.synced')}` : ''}</span>
${formOpening(v.removeAction, v.removeCsrf)}
<input type="hidden" name="passkey" value="${p.id}">
<button type="submit" class="secondary" aria-label="${t('passkeys.remove_label', { name: p.name })}">${t('passkeys.remove')}</button>
</form>
</li>`;
}

/** The profile page's passkeys: the list (name, added, last used), removal, and adding one. */
export function profilePasskeysView(texts: Texts, v: ProfilePasskeysView): SafeHtml {
  const { t } = bound(texts);
  const list = v.passkeys.length
    ? html`<ul class="passkeys">${v.passkeys.map((p) => passkeyItem(texts, v, p))}</ul>`
    : html`<p class="muted">${t('passkeys.none')}</p>`;
  const add = v.register
    ? html`<div id="passkey-register" data-options="${v.register.optionsUrl}" data-verify="${v.register.verifyUrl}" data-csrf="${v.register.csrf}" hidden>
${problemOf(texts)}<label for="passkey_name">${t('passkeys.name')}</label>
<input id="passkey_name" name="passkey_name" maxlength="${v.nameMax}" autocomplete="off" placeholder="${t('passkeys.name_example')}" required>
<button type="button">${t('passkeys.add')}</button>
</div>
<p class="muted" data-passkey-unsupported>${t('passkeys.unsupported')}</p>`
    : html`<p class="muted">${t('passkeys.full')}</p>`;
  return html`<h2>${t('passkeys.title')}</h2>
<p>${t('passkeys.intro')}</p>
${list}${add}
${script(v.script)}`;
}
