import QRCode from 'qrcode';
import type { CodeOutcome } from '../../domain/sign-in/index.js';
import { html, type SafeHtml, SafeHtml as Trusted } from './html.js';
import { type PageOptions, throttledPage } from './respond.js';
import { notice } from './views.js';

/** The bodies of the second-factor pages. Pure functions of their inputs; `html` escapes every value. */

/** What a person is told when a code is refused, on the login step and the profile page alike. */
export function codeProblem(outcome: Exclude<CodeOutcome, { ok: true }>): {
  error: string;
  options: PageOptions;
} {
  if (outcome.reason === 'throttled') return throttledPage(outcome.retryAfterS);
  return { error: 'That code is not right. Check your app and try again.', options: { status: 400 } };
}

/**
 * The QR code of an `otpauth://` URI as inline SVG, drawn here on the server: no script, no image
 * request, nothing for the CSP to allow. The SVG is the library's output for our own URI (paths and
 * colours only), so it is trusted as markup; the URI itself never reaches the page unescaped.
 */
export async function qrCodeSvg(uri: string): Promise<SafeHtml> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, width: 208, errorCorrectionLevel: 'M' });
  return new Trusted(
    svg.replace('<svg ', '<svg role="img" aria-label="QR code for your authenticator app" '),
  );
}

/** The secret in groups of four, so it wraps on a narrow screen and is easy to type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export interface ChallengeView {
  action: string;
  csrf: string;
  email: string;
  error: string | null;
}

export function challengeView(v: ChallengeView): SafeHtml {
  return html`<h1>Two-step verification</h1>${notice(v.error)}
<p>Enter the 6-digit code from your authenticator app for <strong>${v.email}</strong>.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<label for="code">Code</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64">
<button type="submit">Verify</button>
</form>
<p class="muted">No access to your app? Enter one of your recovery codes instead.</p>`;
}

export interface SetupView {
  action: string;
  csrf: string;
  /** Hidden fields the form sends along (the profile's form says which step it is). */
  hidden: Record<string, string>;
  secret: string;
  qr: SafeHtml;
  error: string | null;
  /** Why the person is here: required by the org at sign-in, or chosen on the profile. */
  intro: string;
}

export function setupView(v: SetupView): SafeHtml {
  const hidden = Object.entries(v.hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<h1>Set up two-step verification</h1>${notice(v.error)}
<p>${v.intro}</p>
<p>1. Scan this code with an authenticator app (Google Authenticator, 1Password, Authy…).</p>
<p>${v.qr}</p>
<p class="muted">Cannot scan it? Enter this key in the app (time-based, 6 digits):<br><strong><code>${grouped(v.secret)}</code></strong></p>
<p>2. Enter the 6-digit code the app shows.</p>
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
${hidden}
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required maxlength="16">
<button type="submit">Turn on</button>
</form>`;
}

export function recoveryCodesView(codes: string[], continueHref: string, continueLabel: string): SafeHtml {
  return html`<h1>Save your recovery codes</h1>
${notice('Two-step verification is on.', 'notice')}
<p>If you lose your authenticator app, each of these codes signs you in once. They are shown only now: write them down or keep them in a password manager.</p>
<ul>${codes.map((c) => html`<li><code>${c}</code></li>`)}</ul>
<p><a href="${continueHref}">${continueLabel}</a></p>`;
}

export interface StatusView {
  action: string;
  csrf: string;
  recoveryCodesLeft: number;
  required: boolean;
  error: string | null;
  profileHref: string;
}

/** The profile's view of an enrolled factor: how many recovery codes are left, and turning it off. */
export function statusView(v: StatusView): SafeHtml {
  const off = v.required
    ? html`<p class="muted">Your organization requires two-step verification, so it cannot be turned off.</p>`
    : html`<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="step" value="remove">
<label for="code">Code from your app, or a recovery code</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64">
<button type="submit" class="secondary">Turn off two-step verification</button>
</form>`;
  return html`<h1>Two-step verification</h1>${notice(v.error)}
${notice('Two-step verification is on.', 'notice')}
<p>${v.recoveryCodesLeft} of your recovery codes ${v.recoveryCodesLeft === 1 ? 'is' : 'are'} left.</p>
${off}
<p><a href="${v.profileHref}">Back to your profile</a></p>`;
}

/** The section of the profile page about the second factor. */
export function profileSectionView(v: {
  enrolled: boolean;
  required: boolean;
  action: string;
  csrf: string;
  manageHref: string;
}): SafeHtml {
  if (v.enrolled) {
    return html`<h2>Two-step verification</h2><p>On. <a href="${v.manageHref}">Manage</a></p>`;
  }
  return html`<h2>Two-step verification</h2>
${v.required ? notice('Your organization requires two-step verification.') : html`<p>Off. Add a code from an authenticator app to every sign-in.</p>`}
<form method="post" action="${v.action}">
<input type="hidden" name="csrf" value="${v.csrf}">
<input type="hidden" name="step" value="start">
<button type="submit">Set up two-step verification</button>
</form>`;
}
