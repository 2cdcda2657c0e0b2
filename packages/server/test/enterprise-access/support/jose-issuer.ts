import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/**
 * An identity provider written for the tests with jose alone (not Tessera): it publishes discovery
 * and a key set on 127.0.0.1 and signs whatever ID-JAG a test asks it to — the provider of another
 * org (org C) that a Tessera org trusts through a connection, or a malicious one.
 */
export interface JoseIssuer {
  /** `http://127.0.0.1:<port>/` */
  readonly issuer: string;
  /** Its public key set, as /jwks serves it. */
  readonly jwks: { keys: JWK[] };
  /** Signs `claims` with its key (RS256, `kid`), header `typ` oauth-id-jag+jwt unless `typ` says otherwise. */
  sign(claims: JWTPayload, typ?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startJoseIssuer(): Promise<JoseIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'c-1', alg: 'RS256', use: 'sig' };
  const jwks = { keys: [jwk] };
  let issuer = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    res.setHeader('content-type', 'application/json');
    if (path === '/.well-known/openid-configuration')
      return res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}authorize`,
          token_endpoint: `${issuer}token`,
          jwks_uri: `${issuer}jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    if (path === '/jwks') return res.end(JSON.stringify(jwks));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    issuer,
    jwks,
    sign: (claims, typ = 'oauth-id-jag+jwt') =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ, kid: 'c-1' }).sign(privateKey),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
