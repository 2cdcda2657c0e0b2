import { html, type SafeHtml } from './html.js';

/** A "Sign in with …" link per connection, below the login form. */
export function connectionButtonsView(buttons: { name: string; href: string }[]): SafeHtml | null {
  if (buttons.length === 0) return null;
  return html`<div class="sso-list">${buttons.map(
    (b) => html`<a class="sso" href="${b.href}">Sign in with ${b.name}</a>`,
  )}</div>`;
}

/** After an upstream sign-in that must prove an existing account first (account-link-proofs.ts). */
export function linkSentView(v: { email: string; connection: string; minutes: number }): SafeHtml {
  return html`<h1>Confirm it is your account</h1>
<p>An account for <strong>${v.email}</strong> already exists here, but its address was never confirmed.</p>
<p class="notice" role="status">To sign in with ${v.connection}, open the link we sent to ${v.email}, in this browser, within ${v.minutes} minutes.</p>
<p class="muted">Linking signs that account out everywhere and removes its password, passkeys and second factor: from then on you sign in with ${v.connection}.</p>`;
}

/** A mailed link opened in its browser: a button, so a mail scanner following links spends nothing. */
export function linkConfirmView(v: {
  action: string;
  csrf: string;
  token: string;
  email: string;
  connection: string;
}): SafeHtml {
  return html`<h1>Link your account to ${v.connection}</h1>
<p>Sign in to <strong>${v.email}</strong> with ${v.connection} from now on.</p>
<p class="muted">Every session of this account ends, and its password, passkeys and second factor are removed.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<button type="submit">Link and sign in</button>
</form>`;
}
