import { challengeOf, randomToken } from './pkce.js';

/**
 * The console's sign-in: the first-party public client `cli_console` on the console issuer, code
 * + PKCE. Tokens live in this module's memory only: a reload signs in again through the hosted
 * login, which answers at once while its session cookie lasts. Only the PKCE verifier, the state
 * and the page to come back to cross the redirect, in sessionStorage.
 */
export const CLIENT_ID = 'cli_console';
export const SCOPE = 'openid profile email offline_access org:read org:write events:read users:impersonate';
const PENDING = 'tessera.console.sign-in';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
  end_session_endpoint?: string;
}

interface Tokens {
  access: string;
  refresh: string | null;
  idToken: string | null;
}

interface Pending {
  state: string;
  verifier: string;
  returnTo: string;
}

let discovery: Promise<Discovery> | null = null;
let tokens: Tokens | null = null;
let refreshing: Promise<boolean> | null = null;

/** The issuer's endpoints, read once from discovery on this origin. */
export function endpoints(): Promise<Discovery> {
  discovery ??= fetch('/.well-known/openid-configuration').then(async (response) => {
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    return (await response.json()) as Discovery;
  });
  return discovery;
}

export const redirectUriOf = (issuer: string) => new URL('console/callback', issuer).href;

/** The page the owner is on, to come back to after signing in. */
export const currentPage = () => `${location.pathname}${location.search}${location.hash}`;

/**
 * Set once sign-out begins: the page is on its way to the end-session endpoint. A page still loading
 * asks the API for more after its tokens are gone, and a sign-in started then would race the
 * sign-out's navigation and, the hosted login not yet ended, come straight back signed in.
 */
let leaving = false;

/** Leaves for the hosted login; resolves never (the page unloads). Not while signing out. */
export async function signIn(returnTo = currentPage()): Promise<never> {
  if (leaving) return new Promise<never>(() => {});
  const d = await endpoints();
  const pending: Pending = { state: randomToken(), verifier: randomToken(), returnTo };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(d.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUriOf(d.issuer),
    scope: SCOPE,
    state: pending.state,
    code_challenge: await challengeOf(pending.verifier),
    code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
  return new Promise<never>(() => {});
}

export class SignInError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function tokenRequest(body: Record<string, string>): Promise<Tokens> {
  const d = await endpoints();
  const response = await fetch(d.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...body, client_id: CLIENT_ID }),
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, string>;
  if (!response.ok || typeof json.access_token !== 'string') {
    throw new SignInError(
      json.error ?? 'server_error',
      json.error_description ?? `token endpoint answered ${response.status}`,
    );
  }
  return { access: json.access_token, refresh: json.refresh_token ?? null, idToken: json.id_token ?? null };
}

/**
 * Finishes sign-in on /console/callback: checks state and issuer, trades the code for tokens
 * and returns the page to go back to.
 */
export async function completeSignIn(params: URLSearchParams): Promise<string> {
  const raw = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  const pending = raw ? (JSON.parse(raw) as Pending) : null;
  if (params.get('error')) {
    throw new SignInError(
      params.get('error') ?? 'error',
      params.get('error_description') ?? 'Sign-in did not finish.',
    );
  }
  const d = await endpoints();
  if (!pending || params.get('state') !== pending.state) {
    throw new SignInError('invalid_state', 'This sign-in link is stale or was started elsewhere.');
  }
  if (params.get('iss') !== null && params.get('iss') !== d.issuer) {
    throw new SignInError('invalid_issuer', 'The sign-in answer came from another issuer.');
  }
  tokens = await tokenRequest({
    grant_type: 'authorization_code',
    code: params.get('code') ?? '',
    redirect_uri: redirectUriOf(d.issuer),
    code_verifier: pending.verifier,
  });
  return pending.returnTo.startsWith('/console/') ? pending.returnTo : '/console/';
}

export const accessToken = (): string | null => tokens?.access ?? null;

/** The signed-in console user's id and email, read from the id token. */
export function whoAmI(): { sub: string; email: string } | null {
  const idToken = tokens?.idToken;
  if (!idToken) return null;
  try {
    const part = idToken.split('.')[1] ?? '';
    const claims = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
    return { sub: String(claims.sub ?? ''), email: String(claims.email ?? '') };
  } catch {
    return null;
  }
}

/**
 * Trades the refresh token for new tokens (rotation: the old one stops working). One refresh at
 * a time: callers that find the access token expired together share it. False when the session
 * has ended and the owner must sign in again.
 */
export function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const current = tokens;
    if (!current?.refresh) return false;
    try {
      const next = await tokenRequest({ grant_type: 'refresh_token', refresh_token: current.refresh });
      // Signing out meanwhile: the tokens stay forgotten.
      if (leaving) return false;
      next.idToken ??= current.idToken;
      tokens = next;
      return true;
    } catch {
      tokens = null;
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * Signs out: revokes the refresh token, forgets every token, then ends the hosted login's session
 * too through the issuer's end_session_endpoint (RP-Initiated Logout, with the ID token as hint),
 * which comes back to /console/signed-out. Resolves never (the page unloads).
 */
export async function signOut(): Promise<never> {
  leaving = true;
  const current = tokens;
  tokens = null;
  const d = await endpoints();
  if (current?.refresh && d.revocation_endpoint) {
    await fetch(d.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: current.refresh,
        token_type_hint: 'refresh_token',
        client_id: CLIENT_ID,
      }),
    }).catch(() => {});
  }
  const landing = new URL('console/signed-out', d.issuer).href;
  if (!d.end_session_endpoint) {
    location.assign(landing);
    return new Promise<never>(() => {});
  }
  const url = new URL(d.end_session_endpoint);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    post_logout_redirect_uri: landing,
    ...(current?.idToken ? { id_token_hint: current.idToken } : {}),
  }).toString();
  location.assign(url.href);
  return new Promise<never>(() => {});
}
