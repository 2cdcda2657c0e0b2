import { html, type SafeHtml } from './html.js';

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
export function logoutConfirmView(v: LogoutConfirmView): SafeHtml {
  return html`<h1>Sign out?</h1>
<p>${v.clientName ? html`<strong>${v.clientName}</strong> asks to sign you out. ` : ''}You are signed in as <strong>${v.email}</strong>.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
${hidden('client_id', v.clientId)}${hidden('post_logout_redirect_uri', v.postLogoutRedirectUri)}${hidden('state', v.state)}
<button type="submit" name="confirm" value="yes">Sign out</button>
</form>
<p class="muted">If you did not ask to sign out, close this page: you stay signed in.</p>`;
}

/**
 * The signed-out page. `frames`: the front-channel logout URLs of the applications signed out
 * (hidden frames, OIDC Front-Channel Logout 1.0); `next`: where the browser goes after them.
 */
export function signedOutView(v: { frames?: string[]; next?: string | null } = {}): SafeHtml {
  const frames = (v.frames ?? []).map(
    (src) => html`<iframe hidden src="${src}" title="Signing out of an application"></iframe>`,
  );
  const next = v.next ?? null;
  return html`<h1>You have signed out</h1>
<p>This browser is no longer signed in here, and the applications you signed in to through it have been signed out.</p>
${frames}${next === null ? html`<p class="muted">You can close this page.</p>` : html`<p><a href="${next}">Continue</a></p>`}`;
}

/** The profile page's sign-out button. */
export function signOutSectionView(v: { action: string; csrf: string }): SafeHtml {
  return html`<h2>Sign out</h2>
<p class="muted">Ends your sign-in in this browser and in the applications you opened through it.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<button type="submit" name="confirm" value="yes" class="secondary">Sign out</button>
</form>`;
}
