// One simulated browser per sign-in: a cookie jar for the org's host and plain HTTP/1.1 over a shared
// kept-alive agent. Requests go to 127.0.0.1 with the URL's host as `Host`, so the org's own host name
// (bench.localhost) needs no name resolution and redirects can be followed as given.
import { type Agent, request } from 'node:http';

export interface Answer {
  status: number;
  location: string | null;
  body: string;
}

export class Browser {
  readonly #jar = new Map<string, string>();

  constructor(
    private readonly agent: Agent,
    private readonly port: number,
  ) {}

  get(url: string): Promise<Answer> {
    return this.#send('GET', url);
  }

  post(url: string, fields: Record<string, string>): Promise<Answer> {
    return this.#send('POST', url, new URLSearchParams(fields).toString());
  }

  #send(method: string, href: string, form?: string): Promise<Answer> {
    const url = new URL(href);
    const headers: Record<string, string | number> = { host: url.host };
    if (this.#jar.size > 0) headers.cookie = [...this.#jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = Buffer.byteLength(form);
    }
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path: url.pathname + url.search,
          headers,
          agent: this.agent,
        },
        (res) => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';');
            const eq = pair.indexOf('=');
            this.#jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
          }
          let body = '';
          res.setEncoding('utf8').on('data', (c: string) => (body += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              location: res.headers.location ? new URL(res.headers.location, url).href : null,
              body,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(form);
    });
  }
}

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The page's first form: its action and hidden inputs (as the hosted pages write them). */
export function readForm(page: string): { action: string; hidden: Record<string, string> } {
  const m = /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  if (!m) throw new Error('no form on the page');
  const hidden: Record<string, string> = {};
  for (const input of (m[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    hidden[input[1] as string] = decodeEntities(input[2] as string);
  }
  return { action: decodeEntities(m[1] as string), hidden };
}
