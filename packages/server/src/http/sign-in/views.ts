import { SCOPES } from '../../domain/directory/index.js';
import { html, type SafeHtml } from './html.js';

/** The bodies of the hosted pages. Pure functions of their inputs; `html` escapes every value. */

export const notice = (error: string | null, kind = 'error') =>
  error ? html`<p class="${kind}" role="alert">${error}</p>` : '';

/** First and last name, as the sign-up and profile forms both ask for them. */
const nameFields = (v: { firstName: string; lastName: string }) =>
  html`<label for="first_name">First name</label>
<input id="first_name" name="first_name" autocomplete="given-name" value="${v.firstName}">
<label for="last_name">Last name</label>
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

export function loginView(v: LoginView): SafeHtml {
  return html`<h1>Sign in</h1>${notice(v.error)}
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password"${v.discovery ? '' : html` required`}>
<button type="submit">Sign in</button>
</form>
${v.passkey ?? ''}${v.connections ?? ''}
${v.forgotHref ? html`<p class="muted"><a href="${v.forgotHref}">Forgot password?</a></p>` : ''}
${v.signupHref ? html`<p class="muted">New here? <a href="${v.signupHref}">Create an account</a></p>` : ''}`;
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

export function signupView(v: SignupView): SafeHtml {
  const domains = v.domains?.map((d) => `@${d}`).join(', ');
  return html`<h1>Create your account</h1>${notice(v.error)}
${domains ? html`<p class="muted sign-up-domains">Open to addresses at ${domains}.</p>` : ''}
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
${nameFields(v)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${v.email}">
${
  domains
    ? html`<p class="muted">We will mail you a link to choose your password and finish your account.</p>
<button type="submit">Send the link</button>`
    : html`<label for="password">Password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Create account</button>`
}
</form>
<p class="muted">Already have an account? <a href="${v.loginHref}">Sign in</a></p>`;
}

/** /signup of an org whose accounts are created by invitation only. */
export function signUpClosedView(message: string, loginHref: string): SafeHtml {
  return html`<h1>Invitation needed</h1><p class="error">${message}</p>
<p class="muted">Already have an account? <a href="${loginHref}">Sign in</a></p>`;
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

export function consentView(v: ConsentView): SafeHtml {
  const items = [
    ...v.scopes.map((s) => html`<li>${SCOPES[s] ?? s}</li>`),
    ...(v.resources ?? []).map(
      (r) =>
        html`<li class="resource">Use <strong>${r.name}</strong> (<span class="resource-identifier">${r.identifier}</span>) on your behalf${
          r.scopes.length
            ? html`:<ul class="resource-scopes">${r.scopes.map((d) => html`<li>${d}</li>`)}</ul>`
            : ''
        }</li>`,
    ),
  ];
  return html`<h1>Allow access?</h1>
<p><strong>${v.clientName}</strong> wants to use your account <strong>${v.email}</strong>.</p>
${v.documentHost ? html`<p class="document-host">It describes itself at <strong>${v.documentHost}</strong>; that is all this service knows of it.</p>` : ''}
${items.length ? html`<p>It asks to:</p><ul class="scopes">${items}</ul>` : html`<p>It asks to know who you are.</p>`}
<p>Your answer is sent back to <strong class="redirect-host">${v.redirectHost}</strong>.</p>
${v.firstParty ? '' : html`<p class="muted third-party">This application was registered by a third party, not by the organization. Allow it only if you trust it.</p>`}
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`;
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

export function profileView(v: ProfileView): SafeHtml {
  return html`<h1>Your profile</h1>${notice(v.error)}${v.saved ? notice('Saved.', 'notice') : ''}${notice(v.notice ?? null, 'notice')}
<p class="muted">Signed in as ${v.email}</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
${nameFields(v)}
${v.details ?? ''}
<button type="submit">Save</button>
</form>
${v.credentials ?? ''}
${v.passkeys ?? ''}
${v.secondFactor ?? ''}${v.signOut ?? ''}`;
}

export function signedInView(email: string): SafeHtml {
  return html`<h1>You are signed in</h1><p>Signed in as <strong>${email}</strong>.</p>
<p class="muted">You can close this page and return to the application.</p>`;
}
