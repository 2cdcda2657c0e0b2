import { createHash, randomBytes } from 'node:crypto';
import { clock } from '../../../src/domain/clock.js';
import type { Deps } from '../../../src/domain/context.js';
import { createClient, type NewClient } from '../../../src/domain/directory/clients.js';
import { createOrg } from '../../../src/domain/directory/orgs.js';
import { insertUserWithTenant, prepareUser } from '../../../src/domain/directory/users.js';
import { type Org, SYSTEM } from '../../../src/domain/types.js';
import type { TestServer } from '../../support/server.js';
import { FormBrowser, signInThroughPages } from './browser.js';

export const PASSWORD = 'correct horse battery';
export const CALLBACK = 'http://127.0.0.1:8765/callback';

/** A user access token's claims: the spec's plus RFC 9068's client_id; identity scopes alone add no `scope` (DESIGN §14). */
export const USER_CLAIMS = [
  'acr',
  'amr',
  'aud',
  'client_id',
  'exp',
  'iat',
  'iss',
  'jti',
  'sid',
  'sub',
  'tnt',
  'typ',
];

/** The sign-in clock stands still at a known instant (so Retry-After is exact) until moved; reset it afterwards. */
export function freezeClock(): { moveTo(ms: number): void } {
  const start = Date.now();
  clock.now = () => start;
  return {
    moveTo(ms) {
      clock.now = () => start + ms;
    },
  };
}

export async function makeOrg(server: TestServer, slug: string): Promise<Org> {
  const { org } = await createOrg(server.deps, {
    slug,
    ownerEmail: `owner@${slug}.test`,
    ownerPassword: 'owner password 1',
  });
  return org;
}

export async function makeUser(deps: Deps, org: Org, email: string, password = PASSWORD) {
  const prepared = await prepareUser({ email, password, firstName: 'Ada', lastName: 'Lovelace' });
  return deps.unitOfWork.run((trx) => insertUserWithTenant(trx, org.id, prepared, SYSTEM));
}

export async function makeClient(deps: Deps, org: Org, input: Partial<NewClient> = {}) {
  const { client, secret } = await createClient(
    deps,
    org,
    { name: 'Web app', kind: 'public', redirectUris: [CALLBACK], ...input },
    SYSTEM,
  );
  return { clientId: client.id, secret, client };
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** An authorization URL with PKCE and a state, plus anything in `extra` (null removes a parameter). */
export function authorizeUrl(
  issuer: string,
  clientId: string,
  extra: Record<string, string | null> = {},
): { url: string; verifier: string; state: string } {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString('hex');
  const params: Record<string, string | null> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    ...extra,
  };
  const url = new URL('oauth/authorize', issuer);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { url: url.href, verifier, state };
}

/** POST /oauth/token with a form body; returns status and JSON. */
export async function tokenRequest(issuer: string, fields: Record<string, string>) {
  const response = await fetch(new URL('oauth/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A bearer call to an org host's API; returns status, headers and JSON (or null). */
export async function api(
  issuer: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
) {
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(new URL(path, issuer), {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  callback: string;
}

/** Signs `email` in through the hosted pages and exchanges the code: a ready TokenSet. */
export async function signIn(
  issuer: string,
  clientId: string,
  email: string,
  browser = new FormBrowser(),
  password = PASSWORD,
  extra: Record<string, string> = {},
): Promise<SignedIn> {
  const { body, callback } = await codeFlow(issuer, clientId, { email, password }, browser, extra);
  return { accessToken: body.access_token as string, refreshToken: body.refresh_token as string, callback };
}

/** The same with `scope=openid`: the access token and the ID token of one sign-in (same `iss` and `aud`). */
export async function signInWithIdToken(
  issuer: string,
  clientId: string,
  who: { email: string; password: string },
): Promise<{ accessToken: string; idToken: string }> {
  const { body } = await codeFlow(issuer, clientId, who, new FormBrowser(), { scope: 'openid' });
  if (typeof body.id_token !== 'string') throw new Error('no ID token for scope=openid');
  return { accessToken: body.access_token as string, idToken: body.id_token };
}

async function codeFlow(
  issuer: string,
  clientId: string,
  who: { email: string; password: string },
  browser: FormBrowser,
  extra: Record<string, string> = {},
) {
  const { url, verifier } = authorizeUrl(issuer, clientId, extra);
  const callback = await signInThroughPages(browser, url, who);
  const code = new URL(callback).searchParams.get('code') ?? '';
  const { status, body } = await tokenRequest(issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    client_id: clientId,
  });
  if (status !== 200) throw new Error(`code exchange failed: ${JSON.stringify(body)}`);
  return { body, callback };
}
