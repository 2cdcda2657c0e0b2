/**
 * A browser as far as Tessera's hosted pages can tell: it follows redirects itself, keeps cookies per
 * host, reads forms out of the HTML and posts them back. It stops at the app's redirect URI and hands
 * over the query Tessera sent there, as a browser would hand it to the app.
 */

/** Cookies per host (Tessera's are host-only), by name. */
type Jar = Map<string, Map<string, string>>;

export interface Form {
  action: URL;
  fields: Map<string, string>;
}

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : decode(match[1]);
};

export class BrowserSession {
  readonly #jar: Jar = new Map();
  /** Every page URL visited, in order. */
  readonly visited: string[] = [];

  constructor(private readonly redirectUri: string) {}

  #cookieHeader(url: URL): string | undefined {
    const cookies = this.#jar.get(url.host);
    return cookies && cookies.size > 0 ? [...cookies].map(([n, v]) => `${n}=${v}`).join('; ') : undefined;
  }

  #keepCookies(url: URL, response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const cookies = this.#jar.get(url.host) ?? new Map<string, string>();
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      this.#jar.set(url.host, cookies);
    }
  }

  /**
   * Requests `url` (GET, or POST with a form) and follows redirects until a page answers — or until a
   * redirect reaches the app's redirect URI, whose query is then the result.
   */
  async navigate(
    start: string | URL,
    form?: URLSearchParams,
  ): Promise<{ page: string; url: URL } | { callback: URLSearchParams }> {
    let url = new URL(start);
    let body = form;
    for (let hops = 0; hops < 10; hops++) {
      if (url.href.startsWith(this.redirectUri)) return { callback: url.searchParams };
      this.visited.push(url.href);
      const headers: Record<string, string> = { accept: 'text/html' };
      const cookie = this.#cookieHeader(url);
      if (cookie !== undefined) headers.cookie = cookie;
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        ...(body === undefined ? {} : { body: body.toString() }),
        redirect: 'manual',
      });
      this.#keepCookies(url, response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        url = new URL(location, url);
        body = undefined;
        continue;
      }
      const page = await response.text();
      if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}: ${page.slice(0, 500)}`);
      return { page, url };
    }
    throw new Error('too many redirects');
  }

  /** The first form of a page with every named input's value; buttons are left to the caller. */
  static formOf(page: string, pageUrl: URL): Form {
    const formTag = /<form\b[^>]*>/i.exec(page)?.[0];
    if (formTag === undefined) throw new Error('the page has no form');
    const action = new URL(attribute(formTag, 'action') ?? pageUrl.href, pageUrl);
    const fields = new Map<string, string>();
    for (const input of page.match(/<input\b[^>]*>/gi) ?? []) {
      const name = attribute(input, 'name');
      if (name !== undefined) fields.set(name, attribute(input, 'value') ?? '');
    }
    return { action, fields };
  }
}
