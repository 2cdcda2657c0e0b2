import QRCode from 'qrcode';
import type { CodeOutcome } from '../../domain/sign-in/index.js';
import type { Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml, SafeHtml as Trusted } from './html.js';
import { bound } from './page-texts.js';
import { type PageOptions, throttledPage } from './respond.js';
import { formOpening, notice } from './views.js';

/** The bodies of the second-factor pages. Pure functions of their inputs; `html` escapes every value. */

/** What a person is told when a code is refused, on the login step and the profile page alike. */
export function codeProblem(
  texts: Texts,
  outcome: Exclude<CodeOutcome, { ok: true }>,
): {
  error: string;
  options: PageOptions;
} {
  if (outcome.reason === 'throttled') return throttledPage(texts, outcome.retryAfterS);
  return { error: texts.t('second_factor.wrong_code'), options: { status: 400 } };
}

/**
 * The QR code of an `otpauth://` URI as inline SVG, drawn here on the server: no script, no image
 * request, nothing for the CSP to allow. The SVG is the library's output for our own URI (paths and
 * colours only), so it is trusted as markup; the URI itself never reaches the page unescaped.
 */
export async function qrCodeSvg(texts: Texts, uri: string): Promise<SafeHtml> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, width: 208, errorCorrectionLevel: 'M' });
  return new Trusted(
    svg.replace('<svg ', html`<svg role="img" aria-label="${texts.t('second_factor.setup.qr')}" `.value),
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

export function challengeView(texts: Texts, v: ChallengeView): SafeHtml {
  const { t, r } = bound(texts);
  return html`<h1>${t('second_factor.title')}</h1>${notice(v.error)}
<p>${r('second_factor.challenge', { email: html`<strong>${v.email}</strong>` })}</p>
${formOpening(v.action, v.csrf)}
<label for="code">${t('second_factor.code')}</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64">
<button type="submit">${t('second_factor.verify')}</button>
</form>
<p class="muted">${t('second_factor.recovery_hint')}</p>`;
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

export function setupView(texts: Texts, v: SetupView): SafeHtml {
  const { t } = bound(texts);
  const hidden = Object.entries(v.hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<h1>${t('second_factor.setup.title')}</h1>${notice(v.error)}
<p>${v.intro}</p>
<p>${t('second_factor.setup.scan')}</p>
<p>${v.qr}</p>
<p class="muted">${t('second_factor.setup.key')}<br><strong><code>${grouped(v.secret)}</code></strong></p>
<p>${t('second_factor.setup.enter')}</p>
${formOpening(v.action, v.csrf)}
${hidden}
<label for="code">${t('second_factor.code')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" required maxlength="16">
<button type="submit">${t('second_factor.setup.submit')}</button>
</form>`;
}

export function recoveryCodesView(
  texts: Texts,
  codes: string[],
  continueHref: string,
  continueLabel: string,
): SafeHtml {
  const { t } = bound(texts);
  return html`<h1>${t('second_factor.codes.title')}</h1>
${notice(t('second_factor.on'), 'notice')}
<p>${t('second_factor.codes.text')}</p>
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
export function statusView(texts: Texts, v: StatusView): SafeHtml {
  const { t } = bound(texts);
  const off = v.required
    ? html`<p class="muted">${t('second_factor.required_on')}</p>`
    : html`${formOpening(v.action, v.csrf)}
<input type="hidden" name="step" value="remove">
<label for="code">${t('second_factor.remove_code')}</label>
<input id="code" name="code" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" required maxlength="64">
<button type="submit" class="secondary">${t('second_factor.turn_off')}</button>
</form>`;
  return html`<h1>${t('second_factor.title')}</h1>${notice(v.error)}
${notice(t('second_factor.on'), 'notice')}
<p>${t('second_factor.codes_left', { count: v.recoveryCodesLeft })}</p>
${off}
<p><a href="${v.profileHref}">${t('second_factor.back_to_profile')}</a></p>`;
}

/** The section of the profile page about the second factor. */
export function profileSectionView(
  texts: Texts,
  v: {
    enrolled: boolean;
    required: boolean;
    action: string;
    csrf: string;
    manageHref: string;
  },
): SafeHtml {
  const { t } = bound(texts);
  if (v.enrolled) {
    return html`<h2>${t('second_factor.title')}</h2><p>${t('second_factor.section.on')} <a href="${v.manageHref}">${t('second_factor.section.manage')}</a></p>`;
  }
  return html`<h2>${t('second_factor.title')}</h2>
${v.required ? notice(t('second_factor.section.required')) : html`<p>${t('second_factor.section.off')}</p>`}
${formOpening(v.action, v.csrf)}
<input type="hidden" name="step" value="start">
<button type="submit">${t('second_factor.section.set_up')}</button>
</form>`;
}
