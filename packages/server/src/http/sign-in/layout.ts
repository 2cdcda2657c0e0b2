import { createHash } from 'node:crypto';
import type { Texts } from '../../domain/texts/index.js';
import { html, SafeHtml } from './html.js';
import type { PageBrand } from './page-brand.js';
import type { LanguageLink } from './page-texts.js';

/**
 * One small stylesheet for every page: a single centred card that fits a phone-width screen
 * (16px inputs keep mobile browsers from zooming). Its hash is what the CSP allows, so no other
 * style, and no script at all, can run on these pages.
 */
const STYLESHEET = `
:root{color-scheme:light dark;--page-background:#f4f5f7;--on-page:#1d2330;--card-background:#fff;--text:#1d2330;--muted:#5b6475;--primary:#2f5bea;--on-primary:#fff;--border:#b8bfcc;--secondary:#e4e7ee;--link:#2448c0}
@media (prefers-color-scheme:dark){:root{--page-background:#12151c;--on-page:#fff;--card-background:#1f2430;--text:#eef0f4;--muted:#b4bccb;--border:#7d8699;--secondary:#353c4c;--link:#a9c1ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--page-background);color:var(--text)}
a{color:var(--link)}
main{max-width:26rem;margin-inline:auto;padding:1.5rem 1rem}
.card{background:var(--card-background);border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
p{margin:0 0 1rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input,textarea{display:block;width:100%;font:inherit;font-size:16px;padding:.65rem .75rem;margin:0 0 1rem;border:1px solid var(--border);border-radius:8px;background:var(--card-background);color:var(--text)}
fieldset{border:0;padding:0;margin:1rem 0 0}
legend{font-size:1.1rem;font-weight:600;padding:0;margin:0 0 .5rem}
button{display:block;width:100%;font-size:16px;padding:.75rem;margin:0 0 .75rem;border:0;border-radius:8px;background:var(--primary);color:var(--on-primary);font-weight:600;cursor:pointer}
button.secondary{background:var(--secondary);color:var(--text)}
a.sso{display:block;text-align:center;font-size:16px;padding:.7rem;margin:0 0 .75rem;border:1px solid var(--border);border-radius:8px;color:var(--text);font-weight:600;text-decoration:none}
.sso-list{margin:1rem 0 0}
ul{padding-inline-start:1.25rem;margin:0 0 1rem}
.error{background:#fdecec;color:#8a1c1c;border-radius:8px;padding:.75rem;margin:0 0 1rem}
.notice{background:#e8f5ec;color:#1d5a30;border-radius:8px;padding:.75rem;margin:0 0 1rem}
.muted{color:var(--muted);font-size:.9rem}
.brand{display:flex;align-items:center;gap:.75rem;margin:0 0 .75rem}
.brand img{display:block;max-height:48px;max-width:12rem;width:auto;height:auto}
.org{color:var(--on-page);font-size:1rem;font-weight:600;margin:0;overflow-wrap:anywhere}
.legal ul,.languages ul{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem .9rem;font-size:.9rem}
.legal a,.languages a{color:var(--on-page)}
.languages a[aria-current]{font-weight:700;text-decoration:none}
`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}`;

/** What a page is made of besides its body: its language, org, brand, title and the switcher's links. */
export interface PageFrame {
  texts: Texts;
  orgName: string;
  brand: PageBrand;
  title: string;
  languages: LanguageLink[];
}

/**
 * The brand's head (its stylesheet after the pages' own, so its custom properties win; its favicon)
 * and its header (the logo, decorative beside the name, which is text) and legal links.
 */
const brandHead = (b: PageBrand) =>
  html`${b.stylesheet === null ? '' : html`<link rel="stylesheet" href="${b.stylesheet}">\n`}${
    b.favicon === null ? '' : html`<link rel="icon" href="${b.favicon.src}" type="${b.favicon.type}">\n`
  }`;

const brandHeader = (b: PageBrand, name: string) =>
  html`<header class="brand">${
    b.logo === null
      ? ''
      : html`<img src="${b.logo.src}" alt="" width="${String(b.logo.width)}" height="${String(b.logo.height)}">`
  }<p class="org">${name}</p></header>`;

const legalLinks = (f: PageFrame) => {
  const links = [
    ...(f.brand.termsUrl === null
      ? []
      : [html`<li><a href="${f.brand.termsUrl}">${f.texts.t('page.terms')}</a></li>`]),
    ...(f.brand.privacyUrl === null
      ? []
      : [html`<li><a href="${f.brand.privacyUrl}">${f.texts.t('page.privacy')}</a></li>`]),
  ];
  return links.length === 0
    ? ''
    : html`<nav class="legal" aria-label="${f.texts.t('page.legal.label')}"><ul>${links}</ul></nav>`;
};

/**
 * The language switcher: a plain list of links (no script), each this page in that language,
 * named in its own language and marked with it (`lang`, `hreflang`) for screen readers.
 */
const switcher = (f: PageFrame) =>
  html`<nav class="languages" aria-label="${f.texts.t('page.switcher.label')}"><ul>${f.languages.map(
    (l) =>
      html`<li><a href="${l.href}" lang="${l.locale}" hreflang="${l.locale}"${l.current ? html` aria-current="true"` : ''}>${l.name}</a></li>`,
  )}</ul></nav>`;

/**
 * A full page around `body`, titled for the org it belongs to, in the page's language and
 * direction (`lang`, `dir`; the stylesheet uses logical properties, so a right-to-left page is
 * mirrored). Its colours are custom properties in one place (`:root`).
 */
export function layout(f: PageFrame, body: SafeHtml): string {
  const name = f.brand.name ?? f.orgName;
  return html`<!doctype html>
<html lang="${f.texts.locale}" dir="${f.texts.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${f.texts.t('page.title', { title: f.title, org: name })}</title>
<style>${new SafeHtml(STYLESHEET)}</style>
${brandHead(f.brand)}</head>
<body><main>${brandHeader(f.brand, name)}<div class="card">${body}</div>${legalLinks(f)}${switcher(f)}</main></body>
</html>`.value;
}
