/**
 * A browser without a browser: fetch with a per-host cookie jar and no automatic redirects, and
 * the hosted pages' forms read from their HTML and submitted as a browser would.
 */
export class FormBrowser {
  readonly #jar = new Map<string, Map<string, string>>();

  /** `fetcher` sends the requests: the global fetch, or one that goes through a proxy under test. */
  constructor(private readonly fetcher: typeof fetch = fetch) {}

  cookies(url: string): Map<string, string> {
    const host = new URL(url).host;
    let jar = this.#jar.get(host);
    if (!jar) {
      jar = new Map();
      this.#jar.set(host, jar);
    }
    return jar;
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const jar = this.cookies(url);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await this.fetcher(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return response;
  }

  get(url: string): Promise<Response> {
    return this.request(url);
  }

  post(url: string, fields: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Reads the page's form and submits it with `fields` added to its hidden inputs. */
  async submit(pageUrl: string, page: string, fields: Record<string, string>): Promise<Response> {
    const form = readForm(page);
    return this.post(new URL(form.action, pageUrl).href, { ...form.hidden, ...fields });
  }
}

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The page's first form, or the first whose action contains `actionPart`: its action and hidden inputs. */
export function readForm(page: string, actionPart = ''): { action: string; hidden: Record<string, string> } {
  for (const m of page.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const action = decodeEntities(m[1] as string);
    if (!action.includes(actionPart)) continue;
    const hidden: Record<string, string> = {};
    for (const input of (m[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      hidden[input[1] as string] = decodeEntities(input[2] as string);
    }
    return { action, hidden };
  }
  throw new Error(`no form${actionPart ? ` posting to ${actionPart}` : ''} on the page:\n${page}`);
}

/** Where a redirect response points, resolved against the URL that answered it. */
export function locationOf(response: Response, from: string): string {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, from).href;
}

export interface SignInOptions {
  email: string;
  password: string;
  /** What to press on the consent page, when it is shown. */
  consent?: 'allow' | 'deny';
}

/**
 * Follows an authorization URL through the hosted pages — sign in, consent — to the redirect
 * back to the client, and returns that URL. Each step checks the status a browser would get.
 */
export async function signInThroughPages(browser: FormBrowser, authorizeUrl: string, options: SignInOptions) {
  let url = authorizeUrl;
  let response = await browser.get(url);
  for (let step = 0; step < 8; step++) {
    if (response.status !== 302 && response.status !== 303) {
      throw new Error(`unexpected ${response.status} at ${url}: ${await response.text()}`);
    }
    const next = locationOf(response, url);
    // The page's own path: `/login`, or `/o/<slug>/login` with path issuers.
    const hosted = /\/(login|consent)$/.exec(new URL(next).pathname)?.[1];
    if (hosted === undefined) return next;
    url = next;
    const page = await browser.get(url);
    if (page.status !== 200) throw new Error(`unexpected ${page.status} at ${url}: ${await page.text()}`);
    const fields: Record<string, string> =
      hosted === 'login'
        ? { email: options.email, password: options.password }
        : { decision: options.consent ?? 'allow' };
    response = await browser.submit(url, await page.text(), fields);
  }
  throw new Error('too many redirects');
}
