import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';

/** A DPoP key as a client holds it: the private key and its public JWK (P-256). */
export interface ProofKey {
  readonly sign: (input: Buffer) => Buffer;
  readonly jwk: Record<string, string>;
}

export function newProofKey(): ProofKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as Record<string, string>;
  return {
    sign: (input) => sign('sha256', input, { key: privateKey, dsaEncoding: 'ieee-p1363' }),
    jwk: { kty: kty as string, crv: crv as string, x: x as string, y: y as string },
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * `count` distinct ES256 DPoP proofs (RFC 9449 §4.2) for one request, made before a measurement so
 * the load generator spends nothing on them: each has its own `jti`, all the `iat` of now (good for
 * the next minute), and `ath` when an access token goes with them.
 */
export function proofs(
  key: ProofKey,
  htm: string,
  htu: string,
  count: number,
  accessToken?: string,
): string[] {
  const header = b64({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk });
  const iat = Math.floor(Date.now() / 1000);
  const ath =
    accessToken === undefined ? {} : { ath: createHash('sha256').update(accessToken).digest('base64url') };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const input = `${header}.${b64({ htm, htu, iat, jti: randomUUID(), ...ath })}`;
    out.push(`${input}.${key.sign(Buffer.from(input)).toString('base64url')}`);
  }
  return out;
}
