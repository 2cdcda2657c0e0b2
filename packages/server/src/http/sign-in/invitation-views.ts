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

/**
 * The page every invitee sees, whether the address has an account or not (a link passed on tells
 * its holder nothing about the address): a name and a password for someone new, or the account's
 * password for someone who has one. Which applies shows only in the answer to the invitee's choice.
 */
export function invitedView(
  v: Invited & { firstName: string; lastName: string; forgotHref: string },
): SafeHtml {
  return html`<h1>Join ${v.orgName}</h1>${notice(v.error)}
<p>You are invited to be ${v.what} <strong>${v.orgName}</strong> as <strong>${v.email}</strong>.</p>
<h2>New here</h2>
<p>Choose your name and a password to accept.</p>
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
</form>
<h2>Have an account with this address?</h2>
<p>Sign in to accept.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="join">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" readonly value="${v.email}">
<label for="current_password">Password</label>
<input id="current_password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in and accept</button>
</form>
<p class="muted"><a href="${v.forgotHref}">Forgot password?</a></p>`;
}

/** This browser is signed in as the invitee already: one click accepts. */
export function signedInView(v: Invited): SafeHtml {
  return html`<h1>Join ${v.orgName}</h1>${notice(v.error)}
<p>You are invited to be ${v.what} <strong>${v.orgName}</strong>.</p>
<p class="muted">You are signed in as ${v.email}.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="join">
<button type="submit">Accept the invitation</button>
</form>`;
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
