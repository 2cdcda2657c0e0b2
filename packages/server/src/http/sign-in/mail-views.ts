import { html, type SafeHtml } from './html.js';
import { notice } from './views.js';

/** The bodies of the mail pages: forgot password, reset password, verify address. */

export interface ForgotView {
  action: string;
  csrf: string;
  email: string;
  error: string | null;
  loginHref: string;
}

export function forgotView(v: ForgotView): SafeHtml {
  return html`<h1>Forgot your password?</h1>${notice(v.error)}
<p>Enter the address of your account. We will send you a link to choose a new password.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email}">
<button type="submit">Send the link</button>
</form>
<p class="muted"><a href="${v.loginHref}">Back to sign in</a></p>`;
}

/** The same page whatever the address: it never says whether an account has it. */
export function forgotSentView(v: { minutes: number; loginHref: string }): SafeHtml {
  return html`<h1>Check your mail</h1>
<p class="notice" role="status">If an account uses that address, a link to choose a new password is on its way to it.</p>
<p>The link works once, for ${v.minutes} minutes. Nothing arrived? Check your spam folder, or ask again in a few minutes.</p>
<p class="muted"><a href="${v.loginHref}">Back to sign in</a></p>`;
}

export interface ResetView {
  action: string;
  csrf: string;
  token: string;
  email: string;
  error: string | null;
}

export function resetView(v: ResetView): SafeHtml {
  return html`<h1>Choose a new password</h1>${notice(v.error)}
<p class="muted">For ${v.email}. Setting it signs you out everywhere.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<label for="password">New password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<label for="password_confirm">New password again</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Set the new password</button>
</form>`;
}

export function resetDoneView(loginHref: string): SafeHtml {
  return html`<h1>Your password is changed</h1>
<p class="notice" role="status">You were signed out everywhere. Sign in again with your new password.</p>
<p><a href="${loginHref}">Sign in</a></p>`;
}

/** A reset or verification link that is unknown, used, expired or for a previous address. */
export function linkClosedView(what: string, againHref: string | null): SafeHtml {
  return html`<h1>This link no longer works</h1>
<p class="error">This ${what} link has expired or was already used.</p>
${againHref ? html`<p><a href="${againHref}">Ask for a new link</a></p>` : html`<p class="muted">Ask for a new link from your profile page.</p>`}`;
}

export function verifyView(v: { action: string; csrf: string; token: string; email: string }): SafeHtml {
  return html`<h1>Confirm your address</h1>
<p>Confirm that <strong>${v.email}</strong> is the address of your account.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<button type="submit">Confirm</button>
</form>`;
}

export function verifiedView(email: string): SafeHtml {
  return html`<h1>Address confirmed</h1>
<p class="notice" role="status">${email} is confirmed. You can close this page.</p>`;
}

export interface CredentialsSection {
  emailAction: string;
  passwordAction: string;
  csrf: string;
  email: string;
  verified: boolean;
}

/** The profile page's address and password forms (below the names form). */
export function credentialsSectionView(v: CredentialsSection): SafeHtml {
  return html`<h2>Email address</h2>
<p>${v.email} · ${v.verified ? 'confirmed' : html`<strong>not confirmed yet</strong>`}</p>
${
  v.verified
    ? ''
    : html`<form method="post" action="${v.emailAction}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="step" value="resend">
<button type="submit" class="secondary">Send the confirmation link again</button>
</form>`
}
<form method="post" action="${v.emailAction}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="step" value="change">
<label for="new_email">New address</label>
<input id="new_email" name="email" type="email" autocomplete="email" required>
<label for="email_password">Current password</label>
<input id="email_password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="secondary">Change address</button>
</form>
<h2>Password</h2>
<form method="post" action="${v.passwordAction}">
<input type="hidden" name="csrf" value="${v.csrf}">
<label for="current_password">Current password</label>
<input id="current_password" name="current_password" type="password" autocomplete="current-password" required>
<label for="new_password">New password (at least 8 characters)</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit" class="secondary">Change password</button>
<p class="muted">Changing it signs you out everywhere else; this browser stays signed in.</p>
</form>`;
}

/** After a `domains` sign-up: the same words whether or not the address has an account already. */
export function signUpSentView(v: { minutes: number; loginHref: string }): SafeHtml {
  return html`<h1>Check your mail</h1>
<p class="notice" role="status">If this address can create an account here, a link to finish it is on its way.</p>
<p>The link works once, for ${v.minutes / 60} hours. Already have an account? <a href="${v.loginHref}">Sign in</a>.</p>`;
}

/** A sign-up link's page: the password is chosen here, by whoever holds the mailbox. */
export function signUpConfirmView(v: {
  action: string;
  csrf: string;
  token: string;
  email: string;
  error: string | null;
}): SafeHtml {
  return html`<h1>Finish your account</h1>${notice(v.error)}
<p class="muted">For ${v.email}.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<label for="password">Password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<label for="password_confirm">Password again</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Create account</button>
</form>`;
}
