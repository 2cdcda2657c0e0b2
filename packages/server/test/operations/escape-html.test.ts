import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { escapeHtml } from '../../src/domain/escape-html.js';
import { passwordResetMail } from '../../src/domain/mail/messages.js';
import { Texts } from '../../src/domain/texts/index.js';
import type { Org } from '../../src/domain/types.js';
import { html } from '../../src/http/sign-in/html.js';

/**
 * HTML escaping has one table (domain/escape-html.ts), and the hosted pages and the mails both
 * escape with it: a value shows the same entities wherever Tessera puts it into HTML.
 */
const NAME = `Tom's <b>"Bar"</b> & \`Grill\``;
const ESCAPED = 'Tom&#39;s &lt;b&gt;&quot;Bar&quot;&lt;/b&gt; &amp; &#96;Grill&#96;';

const org: Org = {
  id: 'org_1',
  slug: 'acme',
  name: NAME,
  isConsole: false,
  dynamicRegistration: false,
  metadataDocuments: false,
  signUp: 'invite_only',
  signUpDomains: [],
  requirePushedRequests: false,
  idTokenSigningAlg: 'RS256',
  defaultLocale: null,
  issuerDomain: null,
  createdAt: 0,
  updatedAt: 0,
};

describe('one HTML escaping table', () => {
  test('& < > " \' and ` become entities; everything else stays', () => {
    assert.equal(escapeHtml(NAME), ESCAPED);
    assert.equal(escapeHtml('plain text, ünïcode — 1 + 2 = 3'), 'plain text, ünïcode — 1 + 2 = 3');
  });

  test('the hosted pages and the mails escape a value alike', () => {
    assert.equal(html`<p>${NAME}</p>`.toString(), `<p>${ESCAPED}</p>`);
    const mail = passwordResetMail(
      new Texts('en'),
      org,
      'ada@acme.test',
      'https://acme.example.com/reset?a=1&b=2',
      30,
    );
    assert.ok(mail.html.includes(`<p style="color:#5b6475;font-size:.9rem">— ${ESCAPED}</p>`), mail.html);
    assert.ok(mail.html.includes('href="https://acme.example.com/reset?a=1&amp;b=2"'), mail.html);
    assert.ok(!mail.html.includes(NAME));
  });

  test('no other file of the server holds an escaping table', () => {
    const src = new URL('../../src/', import.meta.url).pathname;
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    const tables = files(src).filter((file) => /['"]&lt;['"]/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(
      tables.map((file) => relative(src, file)),
      ['domain/escape-html.ts'],
    );
  });
});
