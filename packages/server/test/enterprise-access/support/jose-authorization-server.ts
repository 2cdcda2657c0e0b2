import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';

/**
 * An authorization server written for the tests with jose alone (not Tessera): its token endpoint
 * takes the jwt-bearer grant with an ID-JAG from one enterprise identity provider, checked as the
 * draft says (typ, signature against the provider's published keys, iss, aud = this issuer,
 * client_id = the authenticated client, exp, single-use jti), and answers an opaque access token.
 * It shows that what Tessera issues as the enterprise IdP is taken by a verifier that shares no code
 * with it.
 */
export interface JoseAuthorizationServer {
  /** `http://127.0.0.1:<port>/` */
  readonly issuer: string;
  /** The users its tokens were issued for: the ID-JAGs' `sub`, with their scope. */
  readonly issued: { sub: string; scope: string | undefined; resource: unknown }[];
  close(): Promise<void>;
}

export async function startJoseAuthorizationServer(options: {
  idpIssuer: string;
  idpJwksUri: string;
  clientId: string;
  clientSecret: string;
}): Promise<JoseAuthorizationServer> {
  const keys = createRemoteJWKSet(new URL(options.idpJwksUri));
  const seen = new Set<string>();
  const issued: JoseAuthorizationServer['issued'] = [];
  let issuer = '';
  const server: Server = createServer(async (req, res) => {
    res.setHeader('content-type', 'application/json');
    const refuse = (error: string) => {
      res.statusCode = error === 'invalid_client' ? 401 : 400;
      res.end(JSON.stringify({ error }));
    };
    if (req.method !== 'POST' || new URL(req.url ?? '/', issuer).pathname !== '/oauth/token')
      return refuse('invalid_request');
    const form = new URLSearchParams(await readBody(req));
    if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret)
      return refuse('invalid_client');
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return refuse('unsupported_grant_type');
    try {
      const { payload } = await jwtVerify(form.get('assertion') ?? '', keys, {
        typ: 'oauth-id-jag+jwt',
        issuer: options.idpIssuer,
        audience: issuer,
        algorithms: ['RS256', 'ES256', 'PS256'],
        requiredClaims: ['sub', 'client_id', 'jti', 'exp', 'iat'],
      });
      if (payload.client_id !== options.clientId || seen.has(payload.jti as string))
        return refuse('invalid_grant');
      seen.add(payload.jti as string);
      const scope = typeof payload.scope === 'string' ? payload.scope : undefined;
      issued.push({ sub: payload.sub as string, scope, resource: payload.resource });
      res.end(
        JSON.stringify({
          access_token: randomUUID(),
          token_type: 'Bearer',
          expires_in: 600,
          ...(scope ? { scope } : {}),
        }),
      );
    } catch {
      refuse('invalid_grant');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    issuer,
    issued,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
