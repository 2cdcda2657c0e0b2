// The reference server, run in its own process so it gets the same conditions as Tessera.
// Config from env (PEER_PORT, PEER_CLIENT_ID, PEER_CLIENT_SECRET); tells the parent "ready" over IPC.

import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const port = Number(process.env.PEER_PORT);
const clientId = process.env.PEER_CLIENT_ID ?? 'bench';
const resource = 'https://api.bench.test/';

// Same key type and size as a Tessera org key, so both servers pay for the same signature.
const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
const jwk = await exportJWK(privateKey);
const kid = await calculateJwkThumbprint(jwk, 'sha256');

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: clientId,
      client_secret: process.env.PEER_CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  jwks: { keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    // Without a resource, client_credentials tokens are opaque and stored; a default resource whose
    // server wants JWTs makes a plain request yield a signed, unstored token, like Tessera's.
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => resource,
      getResourceServerInfo: async () => ({
        scope: 'api',
        audience: clientId,
        accessTokenFormat: 'jwt',
        accessTokenTTL: 900,
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  ttl: { ClientCredentials: 900 },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
});

createServer(provider.callback()).listen(port, '127.0.0.1', () => process.send?.('ready'));
