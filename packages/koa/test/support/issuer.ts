import { sign as cryptoSign, KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** An RS256 key pair as the tests use it: jose keys, the public JWK with its thumbprint `kid`. */
export interface TestKey {
  readonly kid: string;
  readonly publicJwk: JWK;
  readonly privateKey: CryptoKey;
}

export async function createTestKey(): Promise<TestKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' }, privateKey };
}

/** A handler that answers a key-set request instead of the normal JWKS (for outages). */
export type KeySetOverride = (res: ServerResponse) => void;

/**
 * A local issuer: a real HTTP server on 127.0.0.1 serving `/.well-known/jwks.json`, counting fetches.
 * `keys` is the served set and may be changed between requests (rotation); `override` simulates outages.
 */
export interface TestIssuer {
  readonly issuer: string;
  readonly key: TestKey;
  keys: JWK[];
  override: KeySetOverride | null;
  /** Key-set requests received so far. */
  readonly fetches: number;
  /** Every request the server received, key set or not. */
  readonly requests: number;
  close(): Promise<void>;
}

export async function startIssuer(key?: TestKey): Promise<TestIssuer> {
  const signing = key ?? (await createTestKey());
  const state = { fetches: 0, requests: 0 };
  const issuer: TestIssuer = {
    issuer: '',
    key: signing,
    keys: [signing.publicJwk],
    override: null,
    get fetches() {
      return state.fetches;
    },
    get requests() {
      return state.requests;
    },
    close: async () => undefined,
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests += 1;
    if (req.method === 'GET' && req.url === '/.well-known/jwks.json') {
      state.fetches += 1;
      if (issuer.override !== null) return issuer.override(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ keys: issuer.keys }));
    }
    res.writeHead(404).end();
  });
  const port = await listen(server);
  return Object.assign(issuer, { issuer: `http://127.0.0.1:${port}/`, close: () => close(server) });
}

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export const CLIENT_ID = 'cli_web';

/** The claims of a valid user token for `issuer`, valid for an hour; `overrides` replace or add claims. */
export function userClaims(issuer: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    typ: 'user',
    iss: issuer,
    aud: CLIENT_ID,
    sub: 'usr_alice',
    tnt: 'tnt_acme',
    sid: 'ses_1',
    jti: 'jti_1',
    amr: ['pwd'],
    acr: 'urn:tessera:acr:pwd',
    iat: now,
    exp: now + 3600,
    ...overrides,
  };
}

/** The claims of a valid machine token of `clientId`. */
export function clientClaims(
  issuer: string,
  clientId: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    typ: 'client',
    iss: issuer,
    aud: clientId,
    sub: clientId,
    jti: 'jti_2',
    iat: now,
    exp: now + 900,
    ...overrides,
  };
}

/** Signs claims the way Tessera does: RS256, `typ: at+jwt`, `kid`; `header` adds or replaces members. */
export function signToken(
  key: TestKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header })
    .sign(key.privateKey);
}

const encode = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Signs arbitrary header and payload text with RS256, bypassing every check a JOSE library makes on the
 * way out: for tokens no honest issuer would produce (unknown `crit`, `exp` of `1e999`, …).
 */
export function signRaw(key: TestKey, header: string | object, payload: string | object): string {
  const headerText = typeof header === 'string' ? header : JSON.stringify(header);
  const payloadText = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const input = `${encode(headerText)}.${encode(payloadText)}`;
  const signature = cryptoSign('RSA-SHA256', Buffer.from(input), KeyObject.from(key.privateKey));
  return `${input}.${signature.toString('base64url')}`;
}

/** Replaces one part (0 header, 1 payload, 2 signature) of a compact token. */
export function replacePart(token: string, index: number, part: string): string {
  const parts = token.split('.');
  parts[index] = part;
  return parts.join('.');
}

export { encode as base64url };
