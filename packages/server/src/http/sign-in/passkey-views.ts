import { html, type SafeHtml } from './html.js';

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

/** A message the script fills in when a ceremony fails (kept hidden until then). */
const problem = html`<p class="error" role="alert" data-passkey-problem hidden></p>`;

export interface LoginPasskeyView {
  optionsUrl: string;
  verifyUrl: string;
  csrf: string;
  script: PasskeyScript;
}

/** "Sign in with a passkey" below the password form: discoverable, so no address is typed. */
export function loginPasskeyView(v: LoginPasskeyView): SafeHtml {
  return html`<div id="passkey-sign-in" data-options="${v.optionsUrl}" data-verify="${v.verifyUrl}" data-csrf="${v.csrf}" hidden>
<p class="muted">Or, without typing anything:</p>
${problem}<button type="button" class="secondary">Sign in with a passkey</button>
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

const day = (ms: number) => {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
};

function passkeyItem(v: ProfilePasskeysView, p: ProfilePasskey): SafeHtml {
  return html`<li class="passkey">
<strong>${p.name}</strong>
<span class="muted">Added ${day(p.createdAt)} · ${p.lastUsedAt === null ? 'never used' : html`last used ${day(p.lastUsedAt)}`}${p.synced ? ' · synced' : ''}</span>
<form method="post" action="${v.removeAction}">
<input type="hidden" name="csrf" value="${v.removeCsrf}">
<input type="hidden" name="passkey" value="${p.id}">
<button type="submit" class="secondary" aria-label="Remove the passkey ${p.name}">Remove</button>
</form>
</li>`;
}

/** The profile page's passkeys: the list (name, added, last used), removal, and adding one. */
export function profilePasskeysView(v: ProfilePasskeysView): SafeHtml {
  const list = v.passkeys.length
    ? html`<ul class="passkeys">${v.passkeys.map((p) => passkeyItem(v, p))}</ul>`
    : html`<p class="muted">You have no passkeys yet.</p>`;
  const add = v.register
    ? html`<div id="passkey-register" data-options="${v.register.optionsUrl}" data-verify="${v.register.verifyUrl}" data-csrf="${v.register.csrf}" hidden>
${problem}<label for="passkey_name">Name of the new passkey</label>
<input id="passkey_name" name="passkey_name" maxlength="${v.nameMax}" autocomplete="off" placeholder="e.g. Work laptop" required>
<button type="button">Add a passkey</button>
</div>
<p class="muted" data-passkey-unsupported>Adding a passkey needs a browser that supports passkeys, with JavaScript on.</p>`
    : html`<p class="muted">You have as many passkeys as you can keep. Remove one to add another.</p>`;
  return html`<h2>Passkeys</h2>
<p>Sign in with your fingerprint, face or screen lock instead of your password. A passkey counts as two-step verification.</p>
${list}${add}
${script(v.script)}`;
}
