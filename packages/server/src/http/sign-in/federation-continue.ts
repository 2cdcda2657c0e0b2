import type { Texts } from '../../domain/texts/index.js';
import { html, type SafeHtml } from './html.js';
import type { PageScript } from './page-scripts.js';

/**
 * The SAML continue page (DESIGN §17): the IdP's page posts its answer to the ACS cross-site, so
 * the browser sends no SameSite cookie with it and the ACS cannot tell whose browser it is. The
 * ACS keeps the verified answer under a one-time id and answers this page of the org's own
 * origin, whose form posts that id to /sso/{con}/continue: a same-site request, which carries the
 * browser-binding cookie (federation-binding.ts). The hosted pages' CSP runs no inline script, so
 * the form is submitted by /sso/continue.js (`script-src 'self'`); without JavaScript the person
 * presses Continue.
 */
export const CONTINUE_SCRIPT_PATH = '/sso/continue.js';

const FORM_ID = 'federation-continue';
const SCRIPT = `(function () {
  'use strict';
  var form = document.getElementById('${FORM_ID}');
  if (form) form.submit();
})();
`;

export function continueView(texts: Texts, action: string, answerId: string): SafeHtml {
  return html`<h1>${texts.t('federation.continue.heading')}</h1>
<form method="post" action="${action}" id="${FORM_ID}">
<input type="hidden" name="answer" value="${answerId}">
<noscript><button type="submit">${texts.t('federation.continue')}</button></noscript>
</form>
<script src="${CONTINUE_SCRIPT_PATH}"></script>`;
}

/** The continue page's script, the same for every org host. */
export const CONTINUE_SCRIPT: PageScript = { path: CONTINUE_SCRIPT_PATH, source: SCRIPT };
