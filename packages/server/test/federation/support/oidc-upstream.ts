import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

type Key = { kid: string; privateKey: CryptoKey; publicJwk: JWK };

/**
 * An OpenID provider small enough to steer, on 127.0.0.1: discovery, an authorization endpoint that
 * signs whoever comes in as `email` at once (303 back with a code), a token endpoint answering an ID
 * token signed with the key `signWith` names, a key set publishing the keys `published` names, and a
 * log of every request it received (method and path) and of every connection opened to it. What
 * Tessera fetches, and how often, is read from that log.
 */
export class SteerableOidcUpstream {
  readonly requests: string[] = [];
  connections = 0;
  /** Fields laid over the discovery document (another host's token endpoint, say). */
  discovery: Record<string, unknown> = {};
  /** The kids the key set publishes, and the one ID tokens are signed with. */
  published: string[] = ['k1'];
  signWith = 'k1';
  email = 'alice@corp.test';
  readonly #keys = new Map<string, Key>();
  readonly #codes = new Map<string, { nonce: string; clientId: string }>();

  private constructor(
    readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(): Promise<SteerableOidcUpstream> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const upstream = new SteerableOidcUpstream(server, `http://127.0.0.1:${port}`);
    server.on('connection', () => upstream.connections++);
    server.on('request', (req, res) => {
      upstream.answer(req.method ?? 'GET', req.url ?? '/', req, res).catch((error) => {
        res.writeHead(500).end(String(error));
      });
    });
    for (const kid of ['k1', 'k2', 'k9']) await upstream.#addKey(kid);
    return upstream;
  }

  async #addKey(kid: string) {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    this.#keys.set(kid, { kid, privateKey, publicJwk });
  }

  /** How many requests for `path` (method and path, e.g. `GET /jwks`) arrived. */
  count(request: string): number {
    return this.requests.filter((r) => r === request).length;
  }

  private async answer(
    method: string,
    url: string,
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) {
    const { pathname, searchParams } = new URL(url, this.issuer);
    this.requests.push(`${method} ${pathname}`);
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (pathname === '/.well-known/openid-configuration') {
      return json({
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        userinfo_endpoint: `${this.issuer}/userinfo`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
        ...this.discovery,
      });
    }
    if (pathname === '/jwks') {
      return json({ keys: this.published.map((kid) => this.#keys.get(kid)?.publicJwk) });
    }
    if (pathname === '/authorize') {
      const code = randomBytes(12).toString('hex');
      this.#codes.set(code, {
        nonce: searchParams.get('nonce') ?? '',
        clientId: searchParams.get('client_id') ?? '',
      });
      const back = new URL(searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', searchParams.get('state') ?? '');
      return res.writeHead(303, { location: back.href }).end();
    }
    if (pathname === '/token' && method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      const grant = this.#codes.get(form.get('code') ?? '');
      this.#codes.delete(form.get('code') ?? '');
      if (!grant) {
        return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
      }
      const key = this.#keys.get(this.signWith) as Key;
      const idToken = await new SignJWT({ nonce: grant.nonce, email: this.email, email_verified: true })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid })
        .setIssuer(this.issuer)
        .setSubject(this.email)
        .setAudience(grant.clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key.privateKey);
      return json({ access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', id_token: idToken });
    }
    return res.writeHead(404).end();
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * A host that takes connections and never answers (a hung provider). It counts the connections it
 * accepted; `release()` drops every one, so what waits on them fails at once.
 */
export class HangingHost {
  connections = 0;
  readonly #sockets = new Set<Socket>();

  private constructor(
    readonly server: TcpServer,
    readonly port: number,
  ) {}

  static async start(): Promise<HangingHost> {
    const server = createTcpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const host = new HangingHost(server, port);
    server.on('connection', (socket) => {
      host.connections++;
      host.#sockets.add(socket);
      socket.on('close', () => host.#sockets.delete(socket));
      socket.on('error', () => {});
    });
    return host;
  }

  /** Resolves once `n` connections were accepted in all. */
  async accepted(n: number): Promise<void> {
    for (let waited = 0; this.connections < n; waited += 10) {
      if (waited > 20_000) throw new Error(`${this.connections} connections accepted, not ${n}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  release(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  async close() {
    this.release();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
