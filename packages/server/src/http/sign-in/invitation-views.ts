import { html, type SafeHtml } from './html.js';
import { notice } from './views.js';

/** The bodies of the invitation page (invitation.ts): one form to accept, or why the link is closed. */

interface Invited {
  action: string;
  csrf: string;
  token: string;
  /** The org joined, and what joining means ("a user of", "a console member of"). */
  orgName: string;
  what: string;
  email: string;
  error: string | null;
}

/** No account yet: a name and a password, and the invitee is in. */
export function newAccountView(v: Invited & { firstName: string; lastName: string }): SafeHtml {
  return html`<h1>Join ${v.orgName}</h1>${notice(v.error)}
<p>You are invited to be ${v.what} <strong>${v.orgName}</strong> as <strong>${v.email}</strong>. Choose your name and a password to accept.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="create">
<label for="first_name">First name</label>
<input id="first_name" name="first_name" autocomplete="given-name" required value="${v.firstName}">
<label for="last_name">Last name</label>
<input id="last_name" name="last_name" autocomplete="family-name" value="${v.lastName}">
<label for="password">Password (at least 8 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Accept and create my account</button>
</form>`;
}

/** An account already: its password (or one click when this browser is signed in as them). */
export function existingAccountView(v: Invited & { signedIn: boolean; forgotHref: string }): SafeHtml {
  const form = v.signedIn
    ? html`<p class="muted">You are signed in as ${v.email}.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="join">
<button type="submit">Accept the invitation</button>
</form>`
    : html`<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="join">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" readonly value="${v.email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in and accept</button>
</form>
<p class="muted"><a href="${v.forgotHref}">Forgot password?</a></p>`;
  return html`<h1>Join ${v.orgName}</h1>${notice(v.error)}
<p>You are invited to be ${v.what} <strong>${v.orgName}</strong>. You have an account already: sign in to accept.</p>
${form}`;
}

/** Accepted: what the invitee has now, and where to go. */
export function acceptedView(v: { orgName: string; what: string; nextHref: string; next: string }): SafeHtml {
  return html`<h1>Welcome to ${v.orgName}</h1>
<p class="notice" role="status">You are now ${v.what} ${v.orgName}.</p>
<p><a href="${v.nextHref}">${v.next}</a></p>`;
}

const CLOSED: Record<'accepted' | 'expired' | 'revoked' | 'unknown', { title: string; text: string }> = {
  accepted: {
    title: 'This invitation was already used',
    text: 'An invitation link works once, and this one has been accepted. If that was you, sign in.',
  },
  expired: {
    title: 'This invitation has expired',
    text: 'An invitation link works for 7 days, and this one is older. Ask the person who invited you for a new one.',
  },
  revoked: {
    title: 'This invitation was withdrawn',
    text: 'The organization withdrew this invitation. Ask the person who invited you if you think this is a mistake.',
  },
  unknown: {
    title: 'This invitation link is not valid',
    text: 'Check that you opened the whole link from the mail or message, or ask for a new invitation.',
  },
};

export type ClosedReason = keyof typeof CLOSED;

export const closedTitle = (reason: ClosedReason) => CLOSED[reason].title;

/** A link that cannot be accepted, and why, in words the invitee can act on. */
export function closedView(reason: ClosedReason, orgName: string | null): SafeHtml {
  const { title, text } = CLOSED[reason];
  return html`<h1>${title}</h1>
${orgName ? html`<p class="muted">Invitation to ${orgName}</p>` : ''}
<p class="error">${text}</p>`;
}
