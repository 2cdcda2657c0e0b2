import * as client from 'openid-client';
import type { Org } from '../types.js';
import { type Connection, connectionSecret, connectionUrls } from './connections.js';
import type { FederationDeps } from './deps.js';
import {
  browserBindingHash,
  EXPIRED_SIGN_IN,
  rememberFederation,
  takeBoundFederation,
} from './pending-requests.js';
import { refuse } from './refusal.js';
import { checkedIdentity } from './upstream-claims.js';
import type { UpstreamIdentity } from './upstream-identity.js';

type OidcConnection = Extract<Connection, { type: 'oidc' }>;

/** How long the upstream has to answer one request (discovery, token, userinfo). */
const UPSTREAM_TIMEOUT_S = 10;

/**
 * The upstream's configuration by discovery (`/.well-known/openid-configuration`). A provider on
 * loopback may be plain http (connections.ts allows it for development and tests only).
 */
async function configurationOf(
  deps: FederationDeps,
  org: Org,
  c: OidcConnection,
): Promise<client.Configuration> {
  const issuer = new URL(c.oidc.issuer);
  const secret = await connectionSecret(deps, org, c.id);
  try {
    return await client.discovery(issuer, c.oidc.clientId, undefined, client.ClientSecretPost(secret), {
      timeout: UPSTREAM_TIMEOUT_S,
      ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    });
  } catch {
    return refuse(
      `${c.name} cannot be reached right now or did not answer as an OpenID provider. Try again later.`,
      502,
    );
  }
}

/**
 * Starts a sign-in at the upstream: code flow with PKCE (S256), a state and a nonce, all
 * remembered sealed under the state with the hash of the browser's binding cookie (`binding`).
 * Returns the upstream's authorization URL.
 */
export async function startOidcSignIn(
  deps: FederationDeps,
  org: Org,
  c: OidcConnection,
  start: { requestId: string | null; loginHint: string | null; binding: string },
): Promise<string> {
  const { requestId, loginHint } = start;
  const config = await configurationOf(deps, org, c);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const browser = browserBindingHash(start.binding);
  await rememberFederation(deps, c.id, state, { requestId, verifier, nonce, browser });
  const params: Record<string, string> = {
    redirect_uri: connectionUrls(deps, org, c).callbackUrl as string,
    scope: c.oidc.scopes.join(' '),
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  };
  if (loginHint) params.login_hint = loginHint;
  return client.buildAuthorizationUrl(config, params).href;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * The upstream's answer at the callback: the state is taken (single use) when this browser is the
 * one that started the sign-in (its binding cookie, `binding`, matches), the code redeemed with
 * the PKCE verifier, the ID token validated (issuer, audience, signature, expiry, nonce) by
 * openid-client. The address comes from the ID token, else from userinfo; `email_verified` is as
 * the upstream says (absent: not verified).
 */
export async function finishOidcSignIn(
  deps: FederationDeps,
  org: Org,
  c: OidcConnection,
  query: URLSearchParams,
  binding: string | null,
): Promise<{ identity: UpstreamIdentity; requestId: string | null }> {
  const state = query.get('state');
  if (!state) return refuse(EXPIRED_SIGN_IN);
  const pending = await takeBoundFederation(deps, c.id, state, binding);
  if (!pending.verifier || !pending.nonce) return refuse(EXPIRED_SIGN_IN);
  const upstreamError = query.get('error');
  if (upstreamError !== null) {
    return refuse(
      upstreamError === 'access_denied'
        ? `${c.name} did not sign you in.`
        : `${c.name} could not sign you in (${upstreamError.slice(0, 60)}).`,
    );
  }
  const config = await configurationOf(deps, org, c);
  const current = new URL(connectionUrls(deps, org, c).callbackUrl as string);
  for (const [k, v] of query) current.searchParams.append(k, v);
  let claims: Record<string, unknown>;
  let accessToken: string;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.verifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    accessToken = tokens.access_token;
  } catch {
    return refuse(
      `The answer from ${c.name} was not accepted: its sign-in could not be verified. Start again.`,
      502,
    );
  }
  const subject = text(claims.sub) ?? refuse(`${c.name} did not say who you are.`, 502);
  // Google Workspace's hosted domain, from the ID token only (never from userinfo, merged below).
  const hostedDomain = text(claims.hd);
  if (text(claims.email) === null) {
    try {
      const info = await client.fetchUserInfo(config, accessToken, subject);
      claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
    } catch {
      // No userinfo: the ID token is all there is; the address is missing and the caller says so.
    }
  }
  return {
    requestId: pending.requestId,
    identity: checkedIdentity(c, {
      subject,
      email: text(claims.email),
      emailVerified: claims.email_verified === true,
      firstName: text(claims.given_name),
      lastName: text(claims.family_name),
      hostedDomain,
    }),
  };
}
