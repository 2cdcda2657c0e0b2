import { base64url, decodeJwt, SignJWT } from 'jose';
import {
  type DpopKey,
  dpopKeyOf,
  forgetStoredKeyPair,
  generateDpopKeyPair,
  hasIndexedDb,
  storedKeyPair,
} from './dpop-key.js';

/**
 * DPoP (RFC 9449) on the client side: proofs signed by the app's key, the server nonces each server
 * hands out (§8, §9), and the one retry a `use_dpop_nonce` answer asks for.
 */

/**
 * `dpop.proof` input: the request the proof is for.
 *
 * @example
 * ```ts
 * const params: DpopProofParams = { method: 'GET', url: 'https://api.example.com/notes', accessToken };
 * ```
 */
export interface DpopProofParams {
  /** `htm`: the request's method. */
  method: string;
  /** `htu`: the request's URL; its query and fragment are left out of the proof. */
  url: string;
  /** At an API: the access token sent with the proof (its hash becomes `ath`). */
  accessToken?: string;
  /** A server nonce to carry; absent, the last one this server handed out (if any). */
  nonce?: string;
}

/**
 * The SDK's DPoP key and proofs, `sdk.dpop` when the SDK was created with `dpop`. The SDK uses it
 * for its own calls; the app uses `fetch` (or `proof`) to call its own APIs with the bound token.
 *
 * @example
 * ```ts
 * const res = await sdk.dpop?.fetch(tokens.accessToken, 'https://api.example.com/notes');
 * ```
 */
export interface Dpop {
  /** The key's RFC 7638 thumbprint: the `cnf.jkt` of the tokens bound to it. */
  thumbprint(): Promise<string>;
  /** A proof for one request; see {@link DpopProofParams}. */
  proof(params: DpopProofParams): Promise<string>;
  /**
   * `fetch` with `Authorization: DPoP <accessToken>` and a proof for this request (`ath` included).
   * When the API answers 401 with `error="use_dpop_nonce"` and a `DPoP-Nonce`, the request is sent
   * once more with a proof carrying that nonce: the body must then be one fetch can send twice (a
   * string, `URLSearchParams`, `FormData`, a `Blob` or a buffer — not a stream). Resolves to the
   * last `Response`, whatever its status.
   */
  fetch(accessToken: string, url: string | URL, init?: RequestInit): Promise<Response>;
  /**
   * Drops the key (in a browser, removes it from IndexedDB): the next proof is signed by a new one,
   * and tokens bound to the old one are of no more use. A key pair the app passed is kept.
   */
  forget(): Promise<void>;
}

/** How the SDK gets its key: the browser's stored one, one generated per SDK, or the app's own. */
export interface DpopKeySource {
  readonly pair?: CryptoKeyPair;
  /** IndexedDB entry name: issuer and client, so each client of each issuer has its own key. */
  readonly storageId: string;
}

/** The internal side of {@link Dpop}: proofs with the nonce of a server, and nonces remembered. */
export interface DpopSigner extends Dpop {
  /** A proof for `method` at `htu`, with the nonce last seen from `server`. */
  proofFor(server: string, method: string, htu: string, accessToken?: string): Promise<string>;
  /** Keeps the `DPoP-Nonce` an answer of `server` carries (§8.2: servers may hand out a new one any time). */
  remember(server: string, response: Response): void;
}

/** The URL a proof names (`htu`): without query and fragment (RFC 9449 §4.2). */
export function htuOf(url: string | URL): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/** RFC 9449 §4.2 `ath`: the base64url SHA-256 of the access token's ASCII. */
async function athOf(accessToken: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken));
  return base64url.encode(new Uint8Array(digest));
}

/** A proof's `jti`: 128 random bits (`crypto.randomUUID` needs a secure context; this does not). */
function newJti(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * Whether an access token is DPoP-bound (carries `cnf.jkt`), read without verifying: only to choose
 * the scheme it is sent under. A token that is no JWT counts as unbound.
 */
export function isBound(accessToken: string): boolean {
  try {
    const cnf = decodeJwt(accessToken).cnf as { jkt?: unknown } | undefined;
    return typeof cnf?.jkt === 'string';
  } catch {
    return false;
  }
}

/** Whether an answer asks for a proof with the server's nonce: a 401's DPoP challenge (§9). */
export function resourceAsksForNonce(response: Response): boolean {
  if (response.status !== 401 || !response.headers.has('dpop-nonce')) return false;
  return /(^|[\s,])error="use_dpop_nonce"/.test(response.headers.get('www-authenticate') ?? '');
}

/** Whether a token endpoint's answer asks for a proof with its nonce: 400 `use_dpop_nonce` (§8). */
export async function tokenEndpointAsksForNonce(response: Response): Promise<boolean> {
  if (response.status !== 400 || !response.headers.has('dpop-nonce')) return false;
  try {
    const body = (await response.clone().json()) as { error?: unknown } | null;
    return body?.error === 'use_dpop_nonce';
  } catch {
    return false;
  }
}

/**
 * The DPoP signer of one SDK. The key is loaded (or made) on first use and kept; a failure to load
 * it is thrown to that call and tried again on the next.
 */
export function createDpopSigner(source: DpopKeySource): DpopSigner {
  let key: Promise<DpopKey> | null = null;
  const nonces = new Map<string, string>();

  const load = (): Promise<DpopKey> => {
    if (key === null) {
      const pair =
        source.pair !== undefined
          ? Promise.resolve(source.pair)
          : hasIndexedDb()
            ? storedKeyPair(source.storageId)
            : generateDpopKeyPair();
      key = pair.then(dpopKeyOf);
      key.catch(() => {
        key = null;
      });
    }
    return key;
  };

  async function sign(method: string, url: string | URL, accessToken?: string, nonce?: string) {
    const { alg, privateKey, jwk } = await load();
    const claims: Record<string, string> = { htm: method, htu: htuOf(url) };
    if (accessToken !== undefined) claims.ath = await athOf(accessToken);
    if (nonce !== undefined) claims.nonce = nonce;
    return new SignJWT(claims)
      .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
      .setIssuedAt()
      .setJti(newJti())
      .sign(privateKey);
  }

  const signer: DpopSigner = {
    async thumbprint() {
      return (await load()).thumbprint;
    },
    proof(params: DpopProofParams) {
      if (typeof params !== 'object' || params === null)
        throw new TypeError('dpop.proof: "params" must be an object');
      const { method, url, accessToken, nonce } = params;
      if (typeof method !== 'string' || method === '')
        throw new TypeError('dpop.proof: "method" must be a non-empty string');
      const target = new URL(url);
      return sign(method.toUpperCase(), target, accessToken, nonce ?? nonces.get(target.origin));
    },
    proofFor(server, method, htu, accessToken) {
      return sign(method, htu, accessToken, nonces.get(server));
    },
    remember(server, response) {
      const nonce = response.headers.get('dpop-nonce');
      // A nonce is a token of printable ASCII (RFC 9449 §8.1); anything else is not kept.
      if (nonce !== null && /^[\x21-\x7e]{1,512}$/.test(nonce)) nonces.set(server, nonce);
    },
    async fetch(accessToken: string, url: string | URL, init: RequestInit = {}) {
      if (typeof accessToken !== 'string' || accessToken === '')
        throw new TypeError('dpop.fetch: "accessToken" must be a non-empty string');
      const target = new URL(url);
      const method = (init.method ?? 'GET').toUpperCase();
      let response: Response | null = null;
      for (let attempt = 0; attempt < 2; attempt++) {
        const headers = new Headers(init.headers);
        headers.set('authorization', `DPoP ${accessToken}`);
        headers.set('dpop', await sign(method, target, accessToken, nonces.get(target.origin)));
        response = await fetch(target, { ...init, method, headers });
        signer.remember(target.origin, response);
        if (attempt > 0 || !resourceAsksForNonce(response)) break;
        await response.body?.cancel();
      }
      return response as Response;
    },
    async forget() {
      if (source.pair === undefined && hasIndexedDb()) await forgetStoredKeyPair(source.storageId);
      if (source.pair === undefined) key = null;
    },
  };
  return signer;
}
