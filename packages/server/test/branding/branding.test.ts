import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { assertAccessible, DESKTOP, launchChromium, PHONE } from '../console/support/console-browser.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { FormBrowser, locationOf, readForm } from '../sign-in/support/browser.js';
import { authorizeUrl, makeClient, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { TestSmtp } from '../sign-in/support/smtp.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
import { screenshot } from '../support/screenshot.js';
import { startServer, type TestServer } from '../support/server.js';
import { base64, chunk, fixture, png } from './images.js';

/**
 * Branding (issue 47, DESIGN §21, docs/branding.md): an org's brand and a client's own, set by
 * owners through the API; its images checked by their bytes and served by hash from the org's host
 * only, immutable; its colours checked for contrast and served as a stylesheet by hash; every hosted
 * page and the mails show it, and the pages' CSP gains no script source. Chromium loads the pages
 * from the org's host (their stylesheet and logo too), light and dark, English and Arabic, desktop
 * and phone, checks them with axe and keeps screenshots in test-results/branding/.
 */

const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/branding/', import.meta.url));
const sha256 = (bytes: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex');

const LOGO = fixture('logo.png');
const FAVICON = fixture('favicon.png');
const CLIENT_LOGO = fixture('client-logo.png');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const ASSET_CSP = "default-src 'none'; style-src 'none'; script-src 'none'; frame-ancestors 'none'; sandbox";

/** The brand every page test starts from. */
const ACME_BRAND = {
  display_name: 'Acme <b>&</b> Co',
  logo: base64(LOGO),
  favicon: base64(FAVICON),
  primary: '#0B6E4F',
  background: '#f7f3e8',
  terms_url: 'https://acme.example/terms?x=1&y=2',
  privacy_url: 'http://localhost:8080/privacy',
};

for (const database of storageSuite(
  'brands and their images are written, read back, merged per client and removed when no brand names them',
)) {
  describe(`branding (${database})`, async () => {
    const skip = (await databaseSkip(database)) || chromiumSkip();
    const storageTest = storageTestsOn(database, [
      'owners set the brand: stored, read back, audited; its images served by hash, from its own host only',
      'a client’s brand wins over the org’s field by field on the pages reached for it',
    ]);
    let server: TestServer;
    let acme: Org;
    let bravo: Org;
    let clientId: string;
    let otherClientId: string;
    let owner: string;
    let member: string;
    let stranger: string;
    let browser: Browser | null = null;
    const smtp = new TestSmtp();

    before(async () => {
      if (skip) return;
      await smtp.start();
      server = await startServer({
        checkAnswers: true,
        database,
        webhooks: false,
        env: { TESSERA_SMTP_URL: smtp.url },
      });
      acme = await ownedOrg(server, 'acme');
      bravo = await ownedOrg(server, 'bravo');
      await addConsoleMember(server, acme, 'mel@console.test', 'member');
      await makeUser(server.deps, acme, 'ada@acme.test');
      ({ clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes', firstParty: false }));
      ({ clientId: otherClientId } = await makeClient(server.deps, acme, { name: 'Acme Web' }));
      const consoleApp = await consoleOf(server);
      owner = await consoleApp.token('owner@acme.test');
      member = await consoleApp.token('mel@console.test');
      stranger = await consoleApp.token('owner@bravo.test');
      const set = await call(server, 'PATCH', '/organizations/acme/branding', owner, ACME_BRAND);
      assert.equal(set.status, 200, set.text);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
      await smtp.close();
    });

    const issuer = () => server.issuer('acme');
    const logoUrl = () => `${issuer()}branding/${sha256(LOGO)}.png`;

    storageTest(
      'owners set the brand: stored, read back, audited; its images served by hash, from its own host only',
      { skip },
      async () => {
        const expected = {
          display_name: 'Acme <b>&</b> Co',
          logo: { url: logoUrl(), media_type: 'image/png', width: 240, height: 64 },
          favicon: {
            url: `${issuer()}branding/${sha256(FAVICON)}.png`,
            media_type: 'image/png',
            width: 32,
            height: 32,
          },
          primary: '#0b6e4f',
          background: '#f7f3e8',
          text_on_primary: '#ffffff',
          text_on_background: '#1d2330',
          terms_url: 'https://acme.example/terms?x=1&y=2',
          privacy_url: 'http://localhost:8080/privacy',
        };
        const read = await call(server, 'GET', '/organizations/acme/branding', owner);
        assert.equal(read.status, 200);
        assert.deepEqual(read.body, expected);
        // The image: its bytes as uploaded (no metadata to drop), its type, cached for a year, inert.
        const image = await fetch(logoUrl());
        assert.equal(image.status, 200);
        assert.equal(image.headers.get('content-type'), 'image/png');
        assert.equal(image.headers.get('cache-control'), IMMUTABLE);
        assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(image.headers.get('content-security-policy'), ASSET_CSP);
        assert.ok(Buffer.from(await image.arrayBuffer()).equals(LOGO));
        // Another org's host (and the console's) has no such file: no org serves another's image.
        for (const host of [server.issuer('bravo'), `${server.base}/`]) {
          const elsewhere = await fetch(`${host}branding/${sha256(LOGO)}.png`);
          assert.equal(elsewhere.status, 404, host);
          assert.equal(elsewhere.headers.get('cache-control'), null);
        }
        // One audit entry with the images by name, never their bytes.
        const events = await call(server, 'GET', '/organizations/acme/events?per_page=100', owner);
        const entry = events.body.find((e: { key: string }) => e.key === 'branding.updated');
        assert.ok(entry, events.text);
        assert.equal(entry.data.logo, `${sha256(LOGO)}.png`);
        assert.equal(entry.data.primary, '#0b6e4f');
        assert.ok(!JSON.stringify(entry).includes(base64(LOGO).slice(0, 40)));

        // A new logo replaces the old, whose file is then gone; the JPEG and WebP kinds are served as such.
        for (const [name, type, ext] of [
          ['logo.jpg', 'image/jpeg', 'jpg'],
          ['logo.webp', 'image/webp', 'webp'],
        ] as const) {
          const bytes = fixture(name);
          const changed = await call(server, 'PATCH', '/organizations/bravo/branding', stranger, {
            logo: base64(bytes),
          });
          assert.equal(changed.status, 200, changed.text);
          assert.equal(changed.body.logo.media_type, type);
          assert.equal(changed.body.logo.url, `${server.issuer('bravo')}branding/${sha256(bytes)}.${ext}`);
          const served = await fetch(changed.body.logo.url);
          assert.equal(served.headers.get('content-type'), type);
          assert.equal(sha256(await served.arrayBuffer()), sha256(bytes));
        }
        const jpeg = await fetch(`${server.issuer('bravo')}branding/${sha256(fixture('logo.jpg'))}.jpg`);
        assert.equal(jpeg.status, 404, 'the replaced logo is removed');
        // Clearing every field removes the brand.
        const cleared = await call(server, 'PATCH', '/organizations/bravo/branding', stranger, {
          logo: null,
        });
        assert.equal(cleared.body.logo, null);
      },
    );

    storageTest(
      'a client’s brand wins over the org’s field by field on the pages reached for it',
      { skip },
      async () => {
        const path = `/organizations/acme/clients/${clientId}/branding`;
        const set = await call(server, 'PATCH', path, owner, {
          display_name: 'Acme Notes',
          logo: base64(CLIENT_LOGO),
          primary: '#7a1fa2',
        });
        assert.equal(set.status, 200, set.text);
        assert.equal(set.body.background, null, 'a client’s brand holds only what it sets');
        assert.deepEqual((await call(server, 'GET', path, owner)).body, set.body);

        const loginOf = async (client: string) => {
          const b = new FormBrowser();
          const authorize = authorizeUrl(issuer(), client).url;
          return (await b.get(locationOf(await b.get(authorize), authorize))).text();
        };
        const own = await loginOf(clientId);
        assert.match(own, /<p class="org">Acme Notes<\/p>/);
        assert.match(own, new RegExp(`<img src="/branding/${sha256(CLIENT_LOGO)}\\.png"`));
        assert.match(own, /<a href="https:\/\/acme\.example\/terms\?x=1&amp;y=2">Terms of service<\/a>/);
        const sheet = /<link rel="stylesheet" href="([^"]+)">/.exec(own)?.[1] ?? '';
        const css = await (await fetch(new URL(sheet, issuer()))).text();
        assert.equal(
          css,
          ':root{--primary:#7a1fa2;--on-primary:#ffffff;--page-background:#f7f3e8;--on-page:#1d2330}\n' +
            '@media (prefers-color-scheme:dark){:root{--page-background:#2d3034;--on-page:#ffffff}}\n',
        );
        // Another client of the org: the org's brand.
        const other = await loginOf(otherClientId);
        assert.match(other, /<p class="org">Acme &lt;b&gt;&amp;&lt;\/b&gt; Co<\/p>/);
        assert.match(other, new RegExp(`<img src="/branding/${sha256(LOGO)}\\.png"`));
        // Both logos are kept while a brand names each.
        assert.equal((await fetch(logoUrl())).status, 200);
        assert.equal((await fetch(`${issuer()}branding/${sha256(CLIENT_LOGO)}.png`)).status, 200);
      },
    );

    storageTest(
      'owners only: a member is refused 403, another org’s owner 404, nothing changes',
      { skip },
      async () => {
        for (const path of [
          '/organizations/acme/branding',
          `/organizations/acme/clients/${clientId}/branding`,
        ]) {
          for (const [token, status] of [
            [member, 403],
            [stranger, 404],
          ] as const) {
            assert.equal((await call(server, 'GET', path, token)).status, status, path);
            const set = await call(server, 'PATCH', path, token, { primary: '#000000' });
            assert.equal(set.status, status, path);
          }
        }
        // A client of another org is not found under this one.
        const bravoClient = (await makeClient(server.deps, bravo)).clientId;
        assert.equal(
          (await call(server, 'GET', `/organizations/acme/clients/${bravoClient}/branding`, owner)).status,
          404,
        );
        assert.equal(
          (await call(server, 'GET', '/organizations/acme/branding', owner)).body.primary,
          '#0b6e4f',
        );
      },
    );

    storageTest('refusals name the field, in the API’s error body; nothing is stored', { skip }, async () => {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      );
      const wrongMagic = Buffer.from(LOGO);
      wrongMagic[1] = 0x51; // "\x89QNG"
      const oversize = Buffer.concat([LOGO, Buffer.alloc(256 * 1024 - LOGO.length + 1)]);
      const farOversize = Buffer.concat([LOGO, Buffer.alloc(300 * 1024)]);
      const trailing = Buffer.concat([LOGO, Buffer.from('<html><script>alert(1)</script></html>')]);
      // Markup inside the pixel data itself (a stored deflate block): a polyglot whose markup cannot be dropped.
      const markup = Buffer.from('<html><body><script>alert(1)</script></body></html>');
      const stored = (await import('node:zlib')).deflateSync(markup, { level: 0 });
      const huge = png(100_000, 100_000, {
        idat: Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
      });
      // A small header whose pixel data inflates far beyond it: the bomb is stopped at the header's size.
      const bomb = png(64, 64, { idat: (await import('node:zlib')).deflateSync(Buffer.alloc(50_000_000)) });
      const badCrc = Buffer.from(LOGO);
      badCrc[30] = (badCrc[30] ?? 0) ^ 0xff;
      const apng = png(4, 4, { extra: [chunk('acTL', Buffer.alloc(8))] });
      const jpegJunk = Buffer.concat([fixture('logo.jpg'), Buffer.from('PK\u0003\u0004 zip')]);
      const webpLong = Buffer.concat([fixture('logo.webp'), Buffer.from('junk')]);
      const cases: [Record<string, unknown>, string][] = [
        [
          { primary: '#808080' },
          'primary: #808080 reaches only 3.98:1 with white or dark text; WCAG AA needs 4.5:1, so choose a darker or lighter colour',
        ],
        [
          { background: '#e53935' },
          'background: #e53935 reaches only 4.22:1 with white or dark text; WCAG AA needs 4.5:1, so choose a darker or lighter colour',
        ],
        [{ primary: 'red;}body{x' }, 'primary: must be a hex colour such as #2f5bea'],
        [{ primary: 'red' }, 'primary: must be a hex colour such as #2f5bea'],
        [{ primary: '#12345g' }, 'primary: must be a hex colour such as #2f5bea'],
        [
          { logo: base64(svg) },
          'logo: not a PNG, JPEG or WebP image (told by its bytes; SVG and other types are not accepted)',
        ],
        [
          { favicon: base64(wrongMagic) },
          'favicon: not a PNG, JPEG or WebP image (told by its bytes; SVG and other types are not accepted)',
        ],
        [{ logo: base64(oversize) }, 'logo: 262145 bytes; at most 262144 (256 KB)'],
        [{ logo: base64(farOversize) }, 'logo: must be at most 262144 bytes (256 KB) before base64'],
        [{ logo: base64(trailing) }, 'logo: it has bytes after its IEND chunk'],
        [
          { logo: base64(png(4, 4, { idat: stored })) },
          'logo: its image data does not inflate to the size its header gives',
        ],
        [
          { logo: base64(png(markup.length - 1, 1, { idat: stored })) },
          'logo: it carries markup or a script address',
        ],
        [{ logo: base64(huge) }, 'logo: it is 100000×100000 pixels; at most 2048 a side'],
        [{ logo: base64(bomb) }, 'logo: its image data does not inflate to the size its header gives'],
        [{ logo: base64(badCrc) }, 'logo: its IHDR chunk fails its checksum'],
        [{ logo: base64(apng) }, 'logo: animated PNGs are not accepted'],
        [{ logo: base64(jpegJunk) }, 'logo: it has bytes after its end-of-image marker'],
        [{ logo: base64(webpLong) }, 'logo: its RIFF size does not match the file (bytes after its end?)'],
        [{ logo: 'not base64!' }, 'logo: must be the image file as base64'],
        [{ logo: `data:image/png;base64,${base64(LOGO)}` }, 'logo: must be the image file as base64'],
        [
          { terms_url: 'javascript:alert(1)' },
          'terms_url: must be https, or http on localhost, 127.0.0.1 or [::1]',
        ],
        [
          { privacy_url: 'data:text/html,<script>alert(1)</script>' },
          'privacy_url: must be https, or http on localhost, 127.0.0.1 or [::1]',
        ],
        [
          { terms_url: 'http://acme.example/terms' },
          'terms_url: must be https, or http on localhost, 127.0.0.1 or [::1]',
        ],
        [{ terms_url: 'https://user:pw@acme.example/' }, 'terms_url: must not carry credentials'],
        [{ terms_url: '/terms' }, 'terms_url: must be an absolute https URL'],
        [{ display_name: '' }, 'display_name must be 1-100 characters'],
        [{ display_name: 'Acme\u0007' }, 'display_name must not contain control characters'],
        [{ css: 'body{}' }, 'unknown field: css'],
      ];
      for (const [body, detail] of cases) {
        const answer = await call(server, 'PATCH', '/organizations/acme/branding', owner, {
          ...body,
          display_name: body.display_name ?? 'Changed',
        });
        assert.equal(answer.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${answer.text}`);
        assert.deepEqual(answer.body, { error: 'invalid_request', error_detail: detail });
      }
      const now = await call(server, 'GET', '/organizations/acme/branding', owner);
      assert.equal(now.body.display_name, 'Acme <b>&</b> Co', 'all or none: nothing stored');
      assert.equal(now.body.primary, '#0b6e4f');
      // A text chunk carrying markup (a common polyglot) is dropped, the picture kept.
      const polyglot = png(4, 4, {
        extra: [chunk('tEXt', Buffer.from('Comment\u0000<script>alert(1)</script>'))],
      });
      const kept = await call(server, 'PATCH', '/organizations/bravo/branding', stranger, {
        favicon: base64(polyglot),
      });
      assert.equal(kept.status, 200, kept.text);
      const served = Buffer.from(await (await fetch(kept.body.favicon.url)).arrayBuffer());
      assert.ok(!served.includes('script'));
      assert.ok(served.equals(png(4, 4)));
      // The path names nothing but a hash and an extension of this org.
      const hash = sha256(LOGO);
      for (const file of [
        `${hash}.jpg`,
        `${hash}.svg`,
        `${hash.toUpperCase()}.png`,
        `${hash}.png.html`,
        `..%2f..%2fetc%2fpasswd`,
        `${hash}.png%00.html`,
        `%2e%2e/${hash}.png`,
      ]) {
        const answer = await fetch(`${issuer()}branding/${file}`);
        assert.equal(answer.status, 404, file);
        assert.notEqual(answer.headers.get('content-type'), 'image/png', file);
      }
    });

    /** GET `url` with `b` (a fresh browser unless given), as HTML with its headers. */
    async function fetchPage(url: string, b = new FormBrowser()) {
      const response = await b.get(url);
      return {
        status: response.status,
        csp: response.headers.get('content-security-policy') ?? '',
        html: await response.text(),
      };
    }

    /** Every kind of hosted page a person meets, for the org's own brand (no client named). */
    async function everyPage(): Promise<Record<string, { csp: string; html: string }>> {
      const iss = issuer();
      const pages: Record<string, { csp: string; html: string }> = {};
      const b = new FormBrowser();
      const authorize = authorizeUrl(iss, otherClientId).url;
      const loginUrl = locationOf(await b.get(authorize), authorize);
      const login = await fetchPage(loginUrl, b);
      pages.login = login;
      const failed = await b.submit(loginUrl, login.html, {
        email: 'ada@acme.test',
        password: 'wrong password',
      });
      pages['login-failed'] = {
        csp: failed.headers.get('content-security-policy') ?? '',
        html: await failed.text(),
      };
      await b.submit(loginUrl, login.html, { email: 'ada@acme.test', password: PASSWORD });
      pages['signed-in'] = await fetchPage(`${iss}login`, b);
      pages.profile = await fetchPage(`${iss}profile`, b);
      pages['second-factor-setup'] = await fetchPage(`${iss}profile/second-factor`, b);
      pages.passkeys = await fetchPage(`${iss}profile/passkeys`, b);
      pages['sign-out'] = await fetchPage(`${iss}oauth/logout`, b);
      pages.signup = await fetchPage(`${iss}signup`);
      const forgot = new FormBrowser();
      pages.forgot = await fetchPage(`${iss}password/forgot`, forgot);
      const form = readForm(pages.forgot.html);
      const sent = await forgot.post(new URL(form.action, `${iss}password/forgot`).href, {
        ...form.hidden,
        email: 'nobody@acme.test',
      });
      pages['forgot-sent'] = {
        csp: sent.headers.get('content-security-policy') ?? '',
        html: await sent.text(),
      };
      pages['reset-closed'] = await fetchPage(`${iss}password/reset?token=unknown`);
      pages['verify-closed'] = await fetchPage(`${iss}email/verify?token=unknown`);
      pages.device = await fetchPage(`${iss}device`);
      pages['invitation-closed'] = await fetchPage(`${iss}invitation?token=unknown`);
      pages['signed-out'] = await fetchPage(`${iss}oauth/logout`);
      pages['enterprise-sign-in'] = await fetchPage(`${iss}sso/con_unknown/start`);
      pages.error = await fetchPage(`${iss}consent?req=arq_unknown`);
      return pages;
    }

    storageTest('every hosted page shows the brand; its CSP gains no script source', { skip }, async () => {
      const pages = await everyPage();
      const logo = `<img src="/branding/${sha256(LOGO)}.png" alt="" width="240" height="64">`;
      for (const [name, { csp, html }] of Object.entries(pages)) {
        assert.ok(html.includes(logo), `${name}: the logo`);
        assert.match(
          html,
          /<p class="org">Acme &lt;b&gt;&amp;&lt;\/b&gt; Co<\/p>/,
          `${name}: the name, as text`,
        );
        assert.ok(!html.includes('<b>&</b>'), name);
        assert.match(html, /<title>[^<]+ · Acme &lt;b&gt;&amp;&lt;\/b&gt; Co<\/title>/, `${name}: the title`);
        assert.match(html, /<link rel="stylesheet" href="\/branding\/[0-9a-f]{64}\.css">/, name);
        assert.ok(
          html.includes(`<link rel="icon" href="/branding/${sha256(FAVICON)}.png" type="image/png">`),
          name,
        );
        assert.ok(
          html.includes('<a href="https://acme.example/terms?x=1&amp;y=2">Terms of service</a>'),
          name,
        );
        assert.ok(html.includes('<a href="http://localhost:8080/privacy">Privacy policy</a>'), name);
        // The CSP: the brand adds its stylesheet and images from this host, never a script source.
        const directives = new Map(csp.split('; ').map((d) => [d.split(' ')[0], d] as const));
        assert.equal(directives.get('default-src'), "default-src 'none'", name);
        assert.match(directives.get('style-src') ?? '', /^style-src 'sha256-[A-Za-z0-9+/=]+' 'self'$/, name);
        assert.equal(directives.get('img-src'), "img-src 'self'", name);
        assert.equal(directives.get('frame-ancestors'), "frame-ancestors 'none'", name);
        const script = directives.get('script-src');
        assert.ok(script === undefined || script === "script-src 'self'", `${name}: ${script}`);
        assert.ok(!/<script(?! src="\/login\/passkeys\.js)/.test(html), `${name}: no inline script`);
      }
      // The same pages of an org without a brand keep the CSP they had: no img-src, the one style hash.
      await ownedOrg(server, 'plain');
      const plain = await fetchPage(`${server.issuer('plain')}signup`);
      assert.match(
        plain.csp,
        /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
      );
      assert.ok(!plain.html.includes('<img'));
    });

    storageTest(
      'the mails carry the brand: logo by absolute URL, colours, name, links',
      { skip },
      async () => {
        const iss = issuer();
        const b = new FormBrowser();
        const forgot = (await b.get(`${iss}password/forgot`)).text();
        const seen = smtp.mails.length;
        assert.equal(
          (await b.submit(`${iss}password/forgot`, await forgot, { email: 'ada@acme.test' })).status,
          200,
        );
        const mail = await smtp.next('ada@acme.test', seen);
        assert.ok(mail.html.includes(`<img src="${logoUrl()}" alt="" width="180" height="48"`), mail.html);
        assert.ok(
          mail.html.includes(
            '<p style="margin:0;font-weight:600;font-size:1.1rem">Acme &lt;b&gt;&amp;&lt;/b&gt; Co</p>',
          ),
        );
        assert.ok(mail.html.includes('background:#0b6e4f;color:#ffffff'), mail.html);
        assert.ok(
          mail.html.includes(
            '<a href="https://acme.example/terms?x=1&amp;y=2" style="color:#5b6475">Terms of service</a>',
          ),
        );
        assert.ok(!mail.html.includes('<b>&</b>'));
        assert.match(mail.text, /^Acme <b>&<\/b> Co\r?\n/);
        assert.match(
          mail.text,
          /\r?\nTerms of service: https:\/\/acme\.example\/terms\?x=1&y=2\r?\nPrivacy policy: http:\/\/localhost:8080\/privacy\r?\n/,
        );
        // The logo the mail names is there to load, with the org's host's caching.
        const image = await fetch(logoUrl());
        assert.equal(image.status, 200);
        assert.equal(image.headers.get('cache-control'), IMMUTABLE);
      },
    );

    storageTest(
      'Chromium shows the brand light and dark, in English and Arabic, desktop and phone',
      { skip },
      async () => {
        browser = await launchChromium();
        const iss = issuer();
        for (const scheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ viewport: DESKTOP, colorScheme: scheme });
          const page = await context.newPage();
          const failed: string[] = [];
          page.on('requestfailed', (r) => failed.push(r.url()));
          page.on('response', (r) => {
            if (r.request().resourceType() !== 'document' && r.status() >= 400)
              failed.push(`${r.status()} ${r.url()}`);
          });
          for (const locale of ['en', 'ar'] as const) {
            // A real flow: the authorization request, its redirect, the login page and its assets.
            const authorize = new URL(authorizeUrl(iss, otherClientId).url);
            authorize.searchParams.set('ui_locales', locale);
            await page.goto(authorize.href);
            assert.match(page.url(), /\/login\?req=/);
            const look = await page.evaluate(() => {
              const img = document.querySelector('.brand img') as HTMLImageElement;
              const button = document.querySelector('button') as HTMLElement;
              return {
                dir: document.documentElement.dir,
                logo: img.complete && img.naturalWidth,
                button: getComputedStyle(button).backgroundColor,
                buttonText: getComputedStyle(button).color,
                page: getComputedStyle(document.body).backgroundColor,
                name: getComputedStyle(document.querySelector('.org') as HTMLElement).color,
              };
            });
            assert.equal(look.dir, locale === 'ar' ? 'rtl' : 'ltr');
            assert.equal(look.logo, 240, 'the logo loaded from the org host');
            assert.equal(look.button, 'rgb(11, 110, 79)');
            assert.equal(look.buttonText, 'rgb(255, 255, 255)');
            assert.equal(look.page, scheme === 'light' ? 'rgb(247, 243, 232)' : 'rgb(45, 48, 52)');
            assert.equal(look.name, scheme === 'light' ? 'rgb(29, 35, 48)' : 'rgb(255, 255, 255)');
            await assertAccessible(page, `login ${scheme} ${locale}`);
            await screenshot(page, `${SCREENSHOTS}login-${scheme}-${locale}-desktop.png`);
            await page.setViewportSize(PHONE);
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            assert.ok(overflow <= 0, `login ${scheme} ${locale} scrolls sideways at phone width`);
            await screenshot(page, `${SCREENSHOTS}login-${scheme}-${locale}-phone.png`);
            await page.setViewportSize(DESKTOP);
          }
          // The client's own brand, and pages reached without one.
          await page.goto(authorizeUrl(iss, clientId).url);
          assert.equal(
            await page.evaluate(
              () => getComputedStyle(document.querySelector('button') as HTMLElement).backgroundColor,
            ),
            'rgb(122, 31, 162)',
          );
          await assertAccessible(page, `client login ${scheme}`);
          await screenshot(page, `${SCREENSHOTS}client-login-${scheme}-desktop.png`);
          for (const [name, path] of [
            ['signup', 'signup'],
            ['forgot', 'password/forgot'],
            ['error', 'consent?req=arq_unknown'],
          ] as const) {
            await page.goto(`${iss}${path}`);
            await assertAccessible(page, `${name} ${scheme}`);
            await page.setViewportSize(PHONE);
            await screenshot(page, `${SCREENSHOTS}${name}-${scheme}-phone.png`);
            await page.setViewportSize(DESKTOP);
          }
          assert.deepEqual(
            failed.filter((f) => !f.includes('favicon.ico')),
            [],
            'nothing the pages load is refused (CSP) or fails',
          );
          await context.close();
        }
      },
    );
  });
}
