import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * An OpenID provider written for the purpose, on 127.0.0.1, that says whatever the test tells it
 * about the person (`claims`, put in the ID token as they are): a malicious or broken upstream.
 * Discovery, its key set, an authorization endpoint that answers at once with a code (no login
 * page), and a token endpoint that redeems the code for an RS256 ID token carrying the nonce the
 * request was sent with. It checks nothing of its client: what is under test is what Tessera makes
 * of the answer.
 */
export class ClaimsUpstream {
  /** What the next ID tokens say about the person (`sub` included), besides iss, aud, nonce and times. */
  claims: Record<string, unknown> = {};
  readonly issuer: string;
  readonly #server: Server;
  readonly #codes = new Map<string, { nonce: string; clientId: string }>();

  private constructor(server: Server, issuer: string) {
    this.#server = server;
    this.issuer = issuer;
  }

  static async start(): Promise<ClaimsUpstream> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const upstream = new ClaimsUpstream(server, issuer);
    const json = (res: import('node:http').ServerResponse, body: unknown) =>
      res
        .writeHead(200, { 'content-type': 'application/json', connection: 'close' })
        .end(JSON.stringify(body));
    server.on('request', async (req, res) => {
      const url = new URL(req.url ?? '/', issuer);
      if (url.pathname === '/.well-known/openid-configuration') {
        return json(res, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: ['client_secret_post'],
        });
      }
      if (url.pathname === '/jwks') return json(res, { keys: [jwk] });
      if (url.pathname === '/authorize') {
        const code = randomBytes(16).toString('hex');
        upstream.#codes.set(code, {
          nonce: url.searchParams.get('nonce') ?? '',
          clientId: url.searchParams.get('client_id') ?? '',
        });
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return res.writeHead(302, { location: back.href, connection: 'close' }).end();
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        let raw = '';
        for await (const chunk of req) raw += chunk;
        const code = new URLSearchParams(raw).get('code') ?? '';
        const sent = upstream.#codes.get(code);
        upstream.#codes.delete(code);
        if (!sent) {
          return res
            .writeHead(400, { 'content-type': 'application/json', connection: 'close' })
            .end('{"error":"invalid_grant"}');
        }
        const idToken = await new SignJWT({ ...upstream.claims, nonce: sent.nonce })
          .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
          .setIssuer(issuer)
          .setAudience(sent.clientId)
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(privateKey);
        return json(res, {
          access_token: 'upstream-access',
          token_type: 'Bearer',
          expires_in: 300,
          id_token: idToken,
        });
      }
      res.writeHead(404, { connection: 'close' }).end();
    });
    return upstream;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
