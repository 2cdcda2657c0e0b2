import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html.js';

/**
 * One small stylesheet for every page: a single centred card that fits a phone-width screen
 * (16px inputs keep mobile browsers from zooming). Its hash is what the CSP allows, so no other
 * style, and no script at all, can run on these pages.
 */
const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:26rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin:0 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
p{margin:0 0 1rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input,textarea{display:block;width:100%;font:inherit;font-size:16px;padding:.65rem .75rem;margin:0 0 1rem;border:1px solid #b8bfcc;border-radius:8px}
fieldset{border:0;padding:0;margin:1rem 0 0}
legend{font-size:1.1rem;font-weight:600;padding:0;margin:0 0 .5rem}
button{display:block;width:100%;font-size:16px;padding:.75rem;margin:0 0 .75rem;border:0;border-radius:8px;background:#2f5bea;color:#fff;font-weight:600;cursor:pointer}
button.secondary{background:#e4e7ee;color:#1d2330}
a.sso{display:block;text-align:center;font-size:16px;padding:.7rem;margin:0 0 .75rem;border:1px solid #b8bfcc;border-radius:8px;color:#1d2330;font-weight:600;text-decoration:none}
.sso-list{margin:1rem 0 0}
ul{padding-left:1.25rem;margin:0 0 1rem}
.error{background:#fdecec;color:#8a1c1c;border-radius:8px;padding:.75rem;margin:0 0 1rem}
.notice{background:#e8f5ec;color:#1d5a30;border-radius:8px;padding:.75rem;margin:0 0 1rem}
.muted{color:#5b6475;font-size:.9rem}
.org{color:#5b6475;font-size:.9rem;margin:0 0 .5rem}
`;

export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}`;

/** A full page around `body`, titled for the org it belongs to. */
export function layout(orgName: string, title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · ${orgName}</title>
<style>${new SafeHtml(STYLESHEET)}</style>
</head>
<body><main><p class="org">${orgName}</p><div class="card">${body}</div></main></body>
</html>`.value;
}
