import { constants, KeyObject, type SignKeyObjectInput, sign } from 'node:crypto';
import type { CryptoKey } from 'jose';

/**
 * The JWS algorithms this service signs with (DESIGN §20): access tokens RS256 always; ID tokens,
 * logout tokens, ID-JAGs and signed userinfo the org's choice.
 */
export type JwsAlgorithm = 'RS256' | 'ES256' | 'PS256';

/**
 * A private signing key, the `kid` it is published under and its algorithm. `forIdTokens` (the key
 * ring's access-token signer has one) gives the signer of the org's ID-token algorithm: every token
 * the spec does not fix to RS256 is signed through it (idTokenSigner).
 */
export interface Signer {
  kid: string;
  key: CryptoKey;
  alg: JwsAlgorithm;
  forIdTokens?: () => Promise<Signer>;
}

/** node's signing options of each algorithm (all SHA-256); ECDSA's signature as JWS's raw r||s. */
const OPTIONS: Record<JwsAlgorithm, Omit<SignKeyObjectInput, 'key'>> = {
  RS256: {},
  PS256: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
  ES256: { dsaEncoding: 'ieee-p1363' },
};

/** Each signer's key as node's KeyObject with its algorithm's options, made once per key. */
const signingInputs = new WeakMap<CryptoKey, { alg: JwsAlgorithm; input: SignKeyObjectInput }>();

function signingInput({ key, alg }: Signer): SignKeyObjectInput {
  const known = signingInputs.get(key);
  if (known?.alg === alg) return known.input;
  const input = { key: KeyObject.from(key as Parameters<typeof KeyObject.from>[0]), ...OPTIONS[alg] };
  signingInputs.set(key, { alg, input });
  return input;
}

const b64url = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/**
 * Signs a JWT with header `alg` (the signer's), `typ`, `kid`.
 *
 * The compact JWS is put together here and only the signature is left to node's `crypto.sign`,
 * which computes it on libuv's thread pool (given a callback). That is the same token jose's SignJWT
 * makes from these claims (header members in this order, claims as given), at about half its
 * main-thread cost: this runs once per token, and at the token endpoint the main thread is what runs
 * out first. The signer's CryptoKey is used as the KeyObject it wraps: WebCrypto's `subtle.sign`
 * made the same signature with ~4 µs more of the main thread (its algorithm normalization and
 * promise job), a few percent of a machine token's main thread.
 */
export async function signJwt(
  signer: Signer,
  typ: 'at+jwt' | 'JWT' | 'logout+jwt' | 'oauth-id-jag+jwt',
  claims: Record<string, unknown>,
): Promise<string> {
  const input = `${b64url(JSON.stringify({ alg: signer.alg, typ, kid: signer.kid }))}.${b64url(JSON.stringify(claims))}`;
  const key = signingInput(signer);
  const signature = await new Promise<Buffer>((resolve, reject) =>
    sign('sha256', Buffer.from(input, 'latin1'), key, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * The signer of what follows the org's ID-token algorithm: the access-token signer's `forIdTokens`,
 * or the signer itself when it is already that one.
 */
export function idTokenSigner(signer: Signer): Promise<Signer> {
  return signer.forIdTokens === undefined ? Promise.resolve(signer) : signer.forIdTokens();
}

/** Signs an access token: header `alg RS256`, `typ at+jwt`, `kid` (DESIGN §5); never another algorithm. */
export function signAccessToken(signer: Signer, claims: Record<string, unknown>): Promise<string> {
  if (signer.alg !== 'RS256') throw new Error('access tokens are signed with RS256 only');
  return signJwt(signer, 'at+jwt', claims);
}
