import assert from 'node:assert/strict';
import { type FormBrowser, locationOf } from './browser.js';
import { PASSWORD } from './fixtures.js';

/** The device authorization grant's type (RFC 8628 §3.4). */
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** POST a form to an org's OAuth endpoint; status, headers and JSON. */
export async function postForm(issuer: string, path: string, fields: Record<string, string>, auth?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (auth) headers.authorization = auth;
  const response = await fetch(new URL(path, issuer), {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

export const startDevice = (issuer: string, clientId: string, scope = 'openid profile offline_access') =>
  postForm(issuer, 'oauth/device_authorization', { client_id: clientId, scope });

export const poll = (issuer: string, clientId: string, deviceCode: string) =>
  postForm(issuer, 'oauth/token', { grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode });

/** Follows redirects on this host (a browser's GET after a 302/303) until a 200 page; its URL and text. */
export async function follow(browser: FormBrowser, response: Response, from: string) {
  let url = from;
  let current = response;
  for (let i = 0; i < 6 && (current.status === 302 || current.status === 303); i++) {
    url = locationOf(current, url);
    current = await browser.get(url);
  }
  return { url, status: current.status, text: await current.text() };
}

/** Enters `userCode` on the org's device page; the response to the code form's POST. */
export async function enterCode(browser: FormBrowser, issuer: string, userCode: string) {
  const pageUrl = new URL('device', issuer).href;
  const page = await browser.get(pageUrl);
  assert.equal(page.status, 200);
  return { pageUrl, response: await browser.submit(pageUrl, await page.text(), { user_code: userCode }) };
}

/**
 * The person's side over HTTP: the code entered, signed in with a password (when the browser is
 * not yet), the confirmation page read, and `decision` pressed. Returns the confirmation page and
 * the page that answered the decision.
 */
export async function answerThroughPages(
  browser: FormBrowser,
  issuer: string,
  userCode: string,
  who: { email: string; password?: string },
  decision: 'allow' | 'deny',
) {
  const entered = await enterCode(browser, issuer, userCode);
  assert.equal(entered.response.status, 303);
  let page = await follow(browser, entered.response, entered.pageUrl);
  if (new URL(page.url).pathname.endsWith('/login')) {
    const signedIn = await browser.submit(page.url, page.text, {
      email: who.email,
      password: who.password ?? PASSWORD,
    });
    page = await follow(browser, signedIn, page.url);
  }
  assert.equal(page.status, 200, page.text);
  assert.match(new URL(page.url).pathname, /\/device$/);
  const answered = await browser.submit(page.url, page.text, { decision });
  return { confirmation: page, answered, answeredText: await answered.text() };
}
