import type { MessageKey, Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import { bound } from './page-texts.js';
import { formOpening, notice } from './views.js';

/** The bodies of the invitation page (invitation.ts): one form to accept, or why the link is closed. */

/** What the invitee becomes: a user of the org, or a console owner or member of it. */
export type InvitedRole = 'user' | 'owner' | 'member';

interface Invited {
  action: string;
  csrf: string;
  token: string;
  /** The org joined, and what joining makes the invitee. */
  orgName: string;
  role: InvitedRole;
  email: string;
  error: string | null;
}

/** One of the invitation page's two answers: its heading and words, then its form, which posts `step`. */
function answerForm(
  texts: Texts,
  v: Invited,
  answer: { heading: MessageKey; text: MessageKey; step: 'create' | 'join' },
  fields: SafeHtml,
): SafeHtml {
  const { t } = bound(texts);
  return html`<h2>${t(answer.heading)}</h2>
<p>${t(answer.text)}</p>
${formOpening(v.action, v.csrf)}
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="${answer.step}">
${fields}
</form>`;
}

/**
 * The page every invitee sees, whether the address has an account or not (a link passed on tells
 * its holder nothing about the address): a name and a password for someone new, or the account's
 * password for someone who has one. Which applies shows only in the answer to the invitee's choice.
 */
export function invitedView(
  texts: Texts,
  v: Invited & { firstName: string; lastName: string; forgotHref: string },
): SafeHtml {
  const { t, r } = bound(texts);
  const create = html`<label for="first_name">${t('signup.first_name')}</label>
<input id="first_name" name="first_name" autocomplete="given-name" required value="${v.firstName}">
<label for="last_name">${t('signup.last_name')}</label>
<input id="last_name" name="last_name" autocomplete="family-name" value="${v.lastName}">
<label for="password">${t('signup.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">${t('invitation.create')}</button>`;
  const join = html`<label for="email">${t('login.email')}</label>
<input id="email" name="email" type="email" autocomplete="username" readonly value="${v.email}">
<label for="current_password">${t('login.password')}</label>
<input id="current_password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t('invitation.sign_in')}</button>`;
  return html`<h1>${t('invitation.join', { org: v.orgName })}</h1>${notice(v.error)}
<p>${r('invitation.invited', { role: v.role, org: html`<strong>${v.orgName}</strong>`, email: html`<strong>${v.email}</strong>` })}</p>
${answerForm(texts, v, { heading: 'invitation.new_here', text: 'invitation.new_here.text', step: 'create' }, create)}
${answerForm(texts, v, { heading: 'invitation.have_account', text: 'invitation.have_account.text', step: 'join' }, join)}
<p class="muted"><a href="${v.forgotHref}">${t('login.forgot')}</a></p>`;
}

/** This browser is signed in as the invitee already: one click accepts. */
export function signedInView(texts: Texts, v: Invited): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('invitation.join', { org: v.orgName })}</h1>${notice(v.error)}
<p>${r('invitation.invited_signed_in', { role: v.role, org: html`<strong>${v.orgName}</strong>` })}</p>
<p class="muted">${t('invitation.signed_in_as', { email: v.email })}</p>
${formOpening(v.action, v.csrf)}
<input type="hidden" name="token" value="${v.token}">
<input type="hidden" name="step" value="join">
<button type="submit">${t('invitation.accept')}</button>
</form>`;
}

/** Accepted: what the invitee has now, and where to go. */
export function acceptedView(
  texts: Texts,
  v: { orgName: string; role: InvitedRole; nextHref: string; next: string },
): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('invitation.welcome', { org: v.orgName })}</h1>
<p class="notice" role="status">${t('invitation.now', { role: v.role, org: v.orgName })}</p>
<p><a href="${v.nextHref}">${v.next}</a></p>`;
}

export type ClosedReason = 'accepted' | 'expired' | 'revoked' | 'unknown';

export const closedTitle = (texts: Texts, reason: ClosedReason) => texts.t(`invitation.${reason}.title`);

/** A link that cannot be accepted, and why, in words the invitee can act on. */
export function closedView(texts: Texts, reason: ClosedReason, orgName: string | null): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${closedTitle(texts, reason)}</h1>
${orgName ? html`<p class="muted">${t('invitation.to', { org: orgName })}</p>` : ''}
<p class="error">${t(`invitation.${reason}.text`)}</p>`;
}
