import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { clock } from '../../src/domain/clock.js';
import { FormBrowser, locationOf } from '../sign-in/support/browser.js';
import { api, authorizeUrl, CALLBACK, PASSWORD, tokenRequest } from '../sign-in/support/fixtures.js';

/**
 * An authenticator app, written apart from the server's code (RFC 6238: HMAC-SHA-1, 6 digits,
 * 30 s), so the tests check the server against the RFC rather than against itself.
 */
export function totpCode(secretBase32: string, atMs = clock.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/\s/g, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac.at(-1) as number) & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export interface PageForm {
  action: string;
  hidden: Record<string, string>;
}

/** Every POST form of a page with its hidden fields, in page order. */
export function readForms(page: string): PageForm[] {
  return [...page.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)].map((m) => {
    const hidden: Record<string, string> = {};
    for (const h of (m[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      hidden[h[1] as string] = decode(h[2] as string);
    }
    return { action: decode(m[1] as string), hidden };
  });
}

/** The form whose hidden `step` is `step` (the profile's second-factor forms), else the first one. */
export function formWithStep(page: string, step?: string): PageForm {
  const forms = readForms(page);
  const form = step === undefined ? forms[0] : forms.find((f) => f.hidden.step === step);
  if (!form) throw new Error(`no form${step ? ` with step ${step}` : ''} on the page:\n${page}`);
  return form;
}

export async function submitForm(
  browser: FormBrowser,
  pageUrl: string,
  form: PageForm,
  fields: Record<string, string>,
) {
  return browser.post(new URL(form.action, pageUrl).href, { ...form.hidden, ...fields });
}

/** The TOTP key the setup page shows in text (groups of four). */
export function secretOnPage(page: string): string {
  const match = /<code>([A-Z2-7 ]{20,})<\/code>/.exec(page);
  if (!match) throw new Error(`no key on the page:\n${page}`);
  return (match[1] as string).replace(/ /g, '');
}

export function recoveryCodesOnPage(page: string): string[] {
  return [...page.matchAll(/<li><code>([a-z2-7]{4}(?:-[a-z2-7]{4}){3})<\/code><\/li>/g)].map(
    (m) => m[1] as string,
  );
}

/** Opens the hosted profile page for the holder of `accessToken`; returns its URL and HTML. */
export async function openProfile(issuer: string, accessToken: string, browser = new FormBrowser()) {
  const key = await api(issuer, 'POST', 'profile/session', accessToken);
  assert.equal(key.status, 201);
  const opened = await browser.get(new URL(`profile?key=${key.body.key}`, issuer).href);
  const url = locationOf(opened, issuer);
  const page = await browser.get(url);
  assert.equal(page.status, 200);
  return { browser, url, html: await page.text() };
}

/** Enrols TOTP on the profile page; returns the secret and the recovery codes shown once. */
export async function enrolOnProfile(issuer: string, accessToken: string) {
  const { browser, url, html } = await openProfile(issuer, accessToken);
  const started = await submitForm(browser, url, formWithStep(html, 'start'), {});
  assert.equal(started.status, 200);
  const setup = await started.text();
  const secret = secretOnPage(setup);
  const confirmed = await submitForm(browser, url, formWithStep(setup, 'confirm'), {
    code: totpCode(secret),
  });
  assert.equal(confirmed.status, 200);
  const codes = recoveryCodesOnPage(await confirmed.text());
  assert.equal(codes.length, 10);
  return { secret, recoveryCodes: codes, browser, url };
}

export interface Steps {
  password?: string;
  /** The code for the second-factor page, computed when the page is reached. */
  code?: () => string;
  /** On the enrolment page: gets the page, answers the code (and may read the recovery codes). */
  enrol?: (page: string) => string;
  consent?: 'allow' | 'deny';
}

export interface Walk {
  /** The URL the flow ended at (the callback), or the page where it stopped. */
  url: string;
  status: number;
  html: string;
  browser: FormBrowser;
  /** Every page shown on the way (path and HTML), in order. */
  pages: { path: string; html: string }[];
}

/**
 * Follows an authorization URL through the hosted pages — password, second factor or enrolment,
 * recovery codes, consent — as a browser without JavaScript would. Stops at the callback, or at
 * the first page that answers with an error status.
 */
export async function walk(
  startUrl: string,
  email: string,
  steps: Steps,
  browser = new FormBrowser(),
): Promise<Walk> {
  let url = startUrl;
  let response = await browser.get(url);
  const pages: { path: string; html: string }[] = [];
  for (let i = 0; i < 12; i++) {
    if (response.status === 302 || response.status === 303) {
      url = locationOf(response, url);
      if (url.startsWith(CALLBACK)) return { url, status: response.status, html: '', browser, pages };
      response = await browser.get(url);
      continue;
    }
    const html = await response.text();
    const path = new URL(url).pathname;
    pages.push({ path, html });
    if (response.status !== 200) return { url, status: response.status, html, browser, pages };
    let fields: Record<string, string>;
    if (path === '/login') fields = { email, password: steps.password ?? PASSWORD };
    else if (path === '/login/second-factor') fields = { code: steps.code?.() ?? '000000' };
    else if (path === '/login/enrol' && steps.enrol && html.includes('name="code"'))
      fields = { code: steps.enrol(html) };
    else if (path === '/login/enrol') {
      // The recovery codes page: its "Continue" link completes the authorization request.
      const next = /<a href="([^"]+)">Continue/.exec(html)?.[1];
      if (!next) return { url, status: response.status, html, browser, pages };
      url = new URL(decode(next), url).href;
      response = await browser.get(url);
      continue;
    } else if (path === '/consent') fields = { decision: steps.consent ?? 'allow' };
    else return { url, status: response.status, html, browser, pages };
    response = await submitForm(browser, url, formWithStep(html), fields);
  }
  throw new Error('too many steps');
}

/** The authorization code flow through `walk`, then the code exchange; the token response. */
export async function signInWith(issuer: string, clientId: string, email: string, steps: Steps) {
  const { url, verifier } = authorizeUrl(issuer, clientId);
  const done = await walk(url, email, steps);
  assert.ok(
    done.url.startsWith(CALLBACK),
    `ended at ${done.url} (${done.status}): ${done.html.slice(0, 400)}`,
  );
  const code = new URL(done.url).searchParams.get('code') ?? '';
  const exchanged = await tokenRequest(issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    client_id: clientId,
  });
  assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
  return exchanged.body as { access_token: string; refresh_token: string; expires_in: number };
}
