import type { FastifyReply } from 'fastify';
import type { ErrorSituation } from '../../domain/errors.js';
import type { Texts } from '../../domain/texts/index.js';
import { nameSituation } from '../error-code-header.js';
import { html, type SafeHtml } from './html.js';
import { layout, STYLE_HASH } from './layout.js';
import { brandOf, type PageBrand } from './page-brand.js';
import { bound, languageLinks, textsOf } from './page-texts.js';

export interface PageOptions {
  status?: number;
  /**
   * Origins (or `scheme:` of private-use redirect URIs) a form on this page may end up at.
   * Browsers apply `form-action` to the redirect that follows a POST, so the consent form must
   * be allowed to land on the client's redirect URI.
   */
  formTargets?: string[];
  headers?: Record<string, string>;
  /**
   * The page loads this host's own script (/login/passkeys.js) and lets it call this host's JSON
   * endpoints: `script-src 'self'; connect-src 'self'`. Every other page runs no script at all.
   */
  scripts?: boolean;
  /** Inline scripts the page may run, by hash (`script-src 'sha256-…'`): the form_post page's. */
  scriptHashes?: string[];
  /**
   * Origins the page frames (`frame-src`): the signed-out page's front-channel logout frames, exactly
   * those clients' origins. None: no frame loads (`default-src 'none'`).
   */
  frameSources?: string[];
}

/** The source expression that lets a form's redirect reach `uri` (an origin, or a bare scheme). */
export function formTargetOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

/**
 * What the page's CSP lets load besides its own inline stylesheet (by hash): a brand's stylesheet
 * and images from this host (`style-src 'self'`, `img-src 'self'`), only when the brand has them
 * (page-brand.ts). Never a script source: branding adds none.
 */
function brandSources(brand: PageBrand): string {
  const style = `style-src '${STYLE_HASH}'${brand.stylesheet === null ? '' : " 'self'"}`;
  return brand.logo === null && brand.favicon === null ? style : `${style}; img-src 'self'`;
}

/** Sends a hosted page with headers that keep it out of frames, caches and referrers. */
export function sendPage(
  reply: FastifyReply,
  orgName: string,
  title: string,
  body: SafeHtml,
  options: PageOptions = {},
) {
  const texts = textsOf(reply.request);
  const formAction = ["'self'", ...new Set(options.formTargets ?? [])].join(' ');
  const hashes = (options.scriptHashes ?? []).map((h) => ` '${h}'`).join('');
  const scripts = options.scripts
    ? ` script-src 'self'${hashes}; connect-src 'self';`
    : hashes
      ? ` script-src${hashes};`
      : '';
  const frames = options.frameSources?.length
    ? ` frame-src ${[...new Set(options.frameSources)].join(' ')};`
    : '';
  const brand = brandOf(reply.request);
  return reply
    .code(options.status ?? 200)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; ${brandSources(brand)};${scripts}${frames} form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      ...options.headers,
    })
    .send(
      layout({ texts, orgName, brand, title, languages: languageLinks(reply.request, texts.locale) }, body),
    );
}

/** What was done too often: each its own sentence, so that every language can say it its way. */
export type ThrottledKey =
  | 'throttled.attempts'
  | 'login.throttled'
  | 'throttled.mails'
  | 'throttled.codes'
  | 'throttled.links'
  | 'throttled.requests';

/** The words and `Retry-After` of a throttled form: when to try again, rounded up to minutes. */
export function throttledPage(
  texts: Texts,
  retryAfterS: number,
  key: ThrottledKey = 'throttled.attempts',
): { error: string; options: PageOptions } {
  return {
    error: texts.t(key, { minutes: Math.ceil(retryAfterS / 60) }),
    options: { status: 429, headers: { 'retry-after': String(retryAfterS) } },
  };
}

/** A page that explains a failure in words a person can act on. */
export function sendErrorPage(
  reply: FastifyReply,
  orgName: string,
  status: number,
  message: string,
  situation: ErrorSituation,
) {
  // The situation's code, shown so a person can quote it to support; it says nothing the page does not.
  const { t } = bound(textsOf(reply.request));
  const body = html`<h1>${t('error.heading')}</h1><p class="error">${message}</p>
<p class="muted">${t('error.back')}</p>
<p class="muted">${t('error.reference')} <code>${situation}</code></p>`;
  nameSituation(reply, situation);
  return sendPage(reply, orgName, t('error.title'), body, { status });
}
