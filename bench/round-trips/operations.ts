// The operations the round-trips and capacity benches run against a `tessera serve` set up by
// setup.ts: a machine token, a whole password sign-in to the code, the code's exchange, a refresh and
// a page of the management users list. Each throws when the answer is not the one expected.
import { createHash, randomBytes } from 'node:crypto';
import type { Agent } from 'node:http';
import { Browser, readForm } from '../sign-in/browser.js';
import { type Cast, PASSWORD, REDIRECT_URI } from './setup.js';

// ---- the operations ----------------------------------------------------------------------------

export interface Server {
  base: string;
  port: number;
  cast: Cast;
  /** The kept-alive HTTP agent every request goes through. */
  agent: Agent;
}

export async function form(server: Server, path: string, host: string, fields: Record<string, string>) {
  const browser = new Browser(server.agent, server.port);
  const answer = await browser.post(`http://${host}:${server.port}${path}`, fields);
  return {
    status: answer.status,
    body: answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {},
  };
}

export const orgHost = 'bench.localhost';

export async function machineToken(server: Server): Promise<void> {
  const { status } = await form(server, '/oauth/token', orgHost, {
    grant_type: 'client_credentials',
    client_id: server.cast.clientId,
    client_secret: server.cast.clientSecret,
  });
  if (status !== 200) throw new Error(`client_credentials answered ${status}`);
}

/** A whole password sign-in from /oauth/authorize to the code (PKCE, scope openid), as a new browser. */
export async function signIn(server: Server, email: string): Promise<{ code: string; verifier: string }> {
  const browser = new Browser(server.agent, server.port);
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`http://${orgHost}:${server.port}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: server.cast.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'openid email offline_access',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  })) {
    authorize.searchParams.set(k, v);
  }
  let url = authorize.href;
  let answer = await browser.get(url);
  for (let step = 0; step < 10; step++) {
    if ((answer.status !== 302 && answer.status !== 303) || answer.location === null) {
      throw new Error(`${answer.status} at ${new URL(url).pathname}`);
    }
    url = answer.location;
    if (url.startsWith(REDIRECT_URI)) break;
    const path = new URL(url).pathname;
    if (path === '/login' || path === '/consent') {
      const page = await browser.get(url);
      if (page.status !== 200) throw new Error(`${page.status} at ${path}`);
      const fields = readForm(page.body);
      const extra: Record<string, string> =
        path === '/login' ? { email, password: PASSWORD } : { decision: 'allow' };
      answer = await browser.post(new URL(fields.action, url).href, { ...fields.hidden, ...extra });
    } else {
      answer = await browser.get(url);
    }
  }
  const code = new URL(url).searchParams.get('code');
  if (!url.startsWith(REDIRECT_URI) || code === null) throw new Error(`no code: ended at ${url}`);
  return { code, verifier };
}

export async function exchange(server: Server, code: string, verifier: string): Promise<string> {
  const { status, body } = await form(server, '/oauth/token', orgHost, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: server.cast.clientId,
    client_secret: server.cast.clientSecret,
  });
  if (status !== 200 || typeof body.refresh_token !== 'string') {
    throw new Error(`the code exchange answered ${status}: ${JSON.stringify(body.error ?? '')}`);
  }
  return body.refresh_token;
}

export async function refresh(server: Server, token: string): Promise<string> {
  const { status, body } = await form(server, '/oauth/token', orgHost, {
    grant_type: 'refresh_token',
    refresh_token: token,
    client_id: server.cast.clientId,
    client_secret: server.cast.clientSecret,
  });
  if (status !== 200 || typeof body.refresh_token !== 'string' || typeof body.id_token !== 'string') {
    throw new Error(`refresh answered ${status}: ${JSON.stringify(body.error ?? '')}`);
  }
  return body.refresh_token;
}

export async function listPage(server: Server, token: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${server.port}/organizations/bench/users?per_page=50`, {
    headers: { authorization: `Bearer ${token}`, host: `localhost:${server.port}` },
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`the users list answered ${res.status}: ${body}`);
}
