import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, SafeHtml } from './html.js';
import { textsOf } from './page-texts.js';
import { formTargetOf, sendPage } from './respond.js';

/** The one script of the form_post page: submit the form as soon as it is parsed. */
const SUBMIT = 'document.forms[0].submit();';
const SUBMIT_HASH = `sha256-${createHash('sha256').update(SUBMIT).digest('base64')}`;

/**
 * Form Post Response Mode: a page whose form POSTs the answer (`code` or `error`, `state`, `iss`)
 * to the redirect URI. A script allowed by its hash (and nothing else) submits it at once; without
 * JavaScript the person presses Continue. The CSP's `form-action` allows the redirect URI's origin.
 */
export function sendFormPost(
  reply: FastifyReply,
  orgName: string,
  post: { action: string; fields: ReadonlyArray<readonly [string, string]> },
) {
  const inputs = post.fields.map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  const texts = textsOf(reply.request);
  const body = html`<h1>${texts.t('form_post.heading')}</h1>
<form method="post" action="${post.action}">
${inputs}
<noscript><button type="submit">${texts.t('form_post.continue')}</button></noscript>
</form>
<script>${new SafeHtml(SUBMIT)}</script>`;
  return sendPage(reply, orgName, texts.t('form_post.title'), body, {
    formTargets: [formTargetOf(post.action)],
    scriptHashes: [SUBMIT_HASH],
  });
}
