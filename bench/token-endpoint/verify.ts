import { decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import type { Target } from './targets.js';

/**
 * One real token from each server before any load: a comparison is only fair if both answer 200
 * with an RS256 JWT signed by a 2048-bit key (a smaller key or an opaque token would be cheaper).
 */
export async function checkTarget(target: Target): Promise<void> {
  const fail = (why: string): never => {
    throw new Error(`${target.name}: ${why}`);
  };
  const response = await fetch(target.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: target.body,
  });
  const text = await response.text();
  if (response.status !== 200) fail(`token endpoint answered ${response.status}: ${text.slice(0, 300)}`);
  const token = (JSON.parse(text) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string' || token.split('.').length !== 3) return fail('access_token is not a JWS');
  const header = decodeProtectedHeader(token);
  if (header.alg !== 'RS256') fail(`access token alg is ${header.alg}, not RS256`);
  const jwks = (await (await fetch(target.jwksUrl)).json()) as { keys: JWK[] };
  const jwk =
    jwks.keys.find((k) => k.kid === header.kid) ?? fail(`kid ${header.kid} is not in ${target.jwksUrl}`);
  const bits = Buffer.from(jwk.n ?? '', 'base64url').length * 8;
  if (bits !== 2048) fail(`signing key is ${bits}-bit, not 2048`);
  await jwtVerify(token, await importJWK(jwk, 'RS256'));
}
