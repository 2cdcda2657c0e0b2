import { createHash } from 'node:crypto';
import type { Texts } from '../../domain/texts/index.js';
import { html, SafeHtml } from './html.js';
import type { LanguageLink } from './page-texts.js';

/**
 * One small stylesheet for every page: a single centred card that fits a phone-width screen
 * (16px inputs keep mobile browsers from zooming). Its hash is what the CSP allows, so no other
 * style, and no script at all, can run on these pages.
 */
const STYLESHEET = `
:root{--page-background:#f4f5f7;--card-background:#fff;--text:#1d2330;--muted:#5b6475;--primary:#2f5bea;--on-primary:#fff;--border:#b8bfcc;--secondary:#e4e7ee}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--page-background);color:var(--text)}
main{max-width:26rem;margin-inline:auto;padding:1.5rem 1rem}
.card{background:var(--card-background);border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
p{margin:0 0 1rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input,textarea{display:block;width:100%;font:inherit;font-size:16px;padding:.65rem .75rem;margin:0 0 1rem;border:1px solid var(--border);border-radius:8px}
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
.org{color:var(--muted);font-size:.9rem;margin:0 0 .5rem}
.languages ul{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;justify-content:center;gap:.25rem .9rem;font-size:.9rem}
.languages a{color:var(--muted)}
.languages a[aria-current]{color:var(--text);font-weight:600;text-decoration:none}
`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}`;

/** What a page is made of besides its body: its language, org, title and the switcher's links. */
export interface PageFrame {
  texts: Texts;
  orgName: string;
  title: string;
  languages: LanguageLink[];
}

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
  return html`<!doctype html>
<html lang="${f.texts.locale}" dir="${f.texts.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${f.texts.t('page.title', { title: f.title, org: f.orgName })}</title>
<style>${new SafeHtml(STYLESHEET)}</style>
</head>
<body><main><p class="org">${f.orgName}</p><div class="card">${body}</div>${switcher(f)}</main></body>
</html>`.value;
}
