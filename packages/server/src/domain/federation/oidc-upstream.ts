import * as client from 'openid-client';
import type { Org } from '../types.js';
import { type Connection, connectionSecret, connectionUrls } from './connections.js';
import type { FederationDeps } from './deps.js';
import { type OidcUpstreams, UpstreamUnusable } from './oidc-upstreams.js';
import {
  browserBindingHash,
  EXPIRED_SIGN_IN,
  rememberFederation,
  takeBoundFederation,
} from './pending-requests.js';
import { refuse } from './refusal.js';
import { checkedIdentity } from './upstream-claims.js';
import { isAllowedEndpoint } from './upstream-endpoints.js';
import { UPSTREAM_TIMEOUT_MS, UpstreamBusy, type UpstreamRequest } from './upstream-fetch.js';
import type { UpstreamIdentity } from './upstream-identity.js';

type OidcConnection = Extract<Connection, { type: 'oidc' }>;

/** The kept upstreams of this process; only `tessera serve`, which serves the sign-in pages, has them. */
function upstreamsOf(deps: FederationDeps): OidcUpstreams {
  if (deps.upstreams === undefined) throw new Error('connections sign people in only in tessera serve');
  return deps.upstreams;
}

/** The person's page for an upstream that cannot be used now (the reason is in the log). */
function refuseUnusable(c: OidcConnection, error: unknown): never {
  if (error instanceof UpstreamUnusable && error.kind === 'busy')
    return refuse(
      'federation.upstream.busy',
      `Too many sign-ins are on their way to ${c.name} right now. Try again in a moment.`,
      503,
    );
  if (error instanceof UpstreamUnusable && error.kind === 'refused')
    return refuse(
      'federation.upstream.host_refused',
      `${c.name} is not set up correctly: its provider sends sign-ins to a host this organization has not allowed. Ask an owner of the organization to check the connection.`,
      502,
    );
  return refuse(
    'federation.upstream.unreachable',
    `${c.name} cannot be reached right now or did not answer as an OpenID provider. Try again later.`,
    502,
  );
}

/**
 * The upstream's configuration for one sign-in step, from its kept discovery document
 * (oidc-upstreams.ts). openid-client calls the upstream only through `call`: every URL must pass the
 * endpoint rule (upstream-endpoints.ts) again and goes out through the upstream port, but the key
 * set, which is answered from what is kept. A token answer whose ID token names a key (`kid`) the
 * kept set lacks makes the set be fetched again first (once, not under the floor), so a provider
 * that rotated its keys is followed at once. `secret`: for the token endpoint, null when the step
 * calls none. `seen.busy` tells a call refused because too many run from any other failure.
 */
async function configurationOf(
  deps: FederationDeps,
  c: OidcConnection,
  secret: string | null,
  seen: { busy: boolean } = { busy: false },
): Promise<client.Configuration> {
  const upstreams = upstreamsOf(deps);
  let metadata: Record<string, unknown>;
  try {
    metadata = await upstreams.discovery(c);
  } catch (error) {
    return refuseUnusable(c, error);
  }
  const auth = secret === null ? client.None() : client.ClientSecretPost(secret);
  const config = new client.Configuration(
    metadata as client.ServerMetadata,
    c.oidc.clientId,
    undefined,
    auth,
  );
  const allowed = c.oidc.allowedEndpointHosts ?? [];
  const jwksUri = metadata.jwks_uri as string;
  const call: typeof fetch = async (input, init) => {
    const url = String(input);
    if (!isAllowedEndpoint(c.oidc.issuer, allowed, url))
      throw new UpstreamUnusable('refused', `${url} is not an endpoint this connection allows`);
    try {
      if (url === jwksUri && (init?.method ?? 'GET') === 'GET') {
        return Response.json(await upstreams.keySet(c, jwksUri, false));
      }
      const res = await upstreams.call(c, url, {
        ...(init as UpstreamRequest),
        method: init?.method ?? 'GET',
      });
      if (url === metadata.token_endpoint && res.status === 200) {
        const kid = idTokenKid(await res.clone().text());
        if (kid !== null) await upstreams.followKey(c, jwksUri, kid);
      }
      return res;
    } catch (error) {
      if (error instanceof UpstreamBusy || (error instanceof UpstreamUnusable && error.kind === 'busy'))
        seen.busy = true;
      throw error;
    }
  };
  config[client.customFetch] = call as NonNullable<(typeof config)[typeof client.customFetch]>;
  config.timeout = UPSTREAM_TIMEOUT_MS / 1000;
  if (new URL(c.oidc.issuer).protocol === 'http:') client.allowInsecureRequests(config);
  // The ID token's signature is checked against the provider's key set, not taken on TLS's word.
  client.enableNonRepudiationChecks(config);
  return config;
}

/** The `kid` in the header of a token answer's `id_token`, or null (no ID token, no kid, not JSON). */
function idTokenKid(body: string): string | null {
  try {
    const idToken = (JSON.parse(body) as { id_token?: unknown }).id_token;
    if (typeof idToken !== 'string') return null;
    const header = JSON.parse(Buffer.from(idToken.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return typeof header?.kid === 'string' ? header.kid : null;
  } catch {
    return null;
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
  const config = await configurationOf(deps, c, null);
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

/** An error's message for the log: what openid-client or the port said, never a token. */
const describe = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';

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
  if (!state) return refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
  const pending = await takeBoundFederation(deps, c.id, state, binding);
  if (!pending.verifier || !pending.nonce) return refuse('federation.sign_in.expired', EXPIRED_SIGN_IN);
  const upstreamError = query.get('error');
  if (upstreamError !== null) {
    return refuse(
      'federation.upstream.declined',
      upstreamError === 'access_denied'
        ? `${c.name} did not sign you in.`
        : `${c.name} could not sign you in (${upstreamError.slice(0, 60)}).`,
    );
  }
  const seen = { busy: false };
  const config = await configurationOf(deps, c, await connectionSecret(deps, org, c.id), seen);
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
  } catch (error) {
    if (seen.busy) return refuseUnusable(c, new UpstreamUnusable('busy', 'too many upstream calls'));
    deps.upstreams?.report(c.id, `the sign-in was not accepted: ${describe(error)}`);
    return refuse(
      'federation.upstream.unverified',
      `The answer from ${c.name} was not accepted: its sign-in could not be verified. Start again.`,
      502,
    );
  }
  const subject =
    text(claims.sub) ?? refuse('federation.upstream.no_subject', `${c.name} did not say who you are.`, 502);
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
