import { SCOPES } from '../../domain/directory/index.js';
import { html, type SafeHtml } from './html.js';
import { notice } from './views.js';

/** The bodies of the device pages (RFC 8628 §3.3): enter the code, confirm, done, denied. */

export interface DeviceCodeView {
  action: string;
  csrf: string;
  /** What the field holds: the code of `verification_uri_complete`, or what was typed. */
  code: string;
  error: string | null;
}

export function deviceCodeView(v: DeviceCodeView): SafeHtml {
  return html`<h1>Connect a device</h1>${notice(v.error)}
<p>Enter the code your device shows.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<label for="user_code">Code</label>
<input id="user_code" name="user_code" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="BCDF-GHJK" maxlength="32" required value="${v.code}">
<button type="submit">Continue</button>
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
export function deviceConfirmView(v: DeviceConfirmView): SafeHtml {
  const items = [
    ...v.scopes.map((s) => html`<li>${SCOPES[s] ?? s}</li>`),
    ...v.resources.map(
      (r) =>
        html`<li class="resource">Use <strong>${r.name}</strong> (<span class="resource-identifier">${r.identifier}</span>) on your behalf${
          r.scopes.length
            ? html`:<ul class="resource-scopes">${r.scopes.map((d) => html`<li>${d}</li>`)}</ul>`
            : ''
        }</li>`,
    ),
  ];
  return html`<h1>Allow a device?</h1>
<p>A device is asking to use <strong class="client-name">${v.clientName}</strong> with your account <strong>${v.email}</strong>.</p>
<p>It shows the code <strong class="user-code">${v.userCode}</strong>.</p>
<p class="error device-warning">Allow it only if you started signing in on that device yourself and it shows this code. If someone sent you this code or a link to this page, deny.</p>
${v.documentHost ? html`<p class="document-host">It describes itself at <strong>${v.documentHost}</strong>; that is all this service knows of it.</p>` : ''}
${items.length ? html`<p>It asks to:</p><ul class="scopes">${items}</ul>` : html`<p>It asks to know who you are.</p>`}
${v.firstParty ? '' : html`<p class="muted third-party">This application was registered by a third party, not by the organization. Allow it only if you trust it.</p>`}
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`;
}

export const deviceDoneView = (clientName: string): SafeHtml =>
  html`<h1>Device connected</h1>
<p class="notice" role="status"><strong>${clientName}</strong> on your device is signed in. You can close this page and go back to the device.</p>`;

export const deviceDeniedView = (clientName: string): SafeHtml =>
  html`<h1>Request denied</h1>
<p class="notice" role="status">The device was not given access to <strong>${clientName}</strong>. You can close this page.</p>`;
