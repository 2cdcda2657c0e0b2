// The platform's floor: the least a Node server can do per machine token, in its own process like
// the other two. node:http, the form read and parsed, the secret compared in constant time, the
// claims of a Tessera token, one RS256 signature on libuv's pool (crypto.sign with a callback), the
// JSON answer. No routing, no framework, no store, no logging. Config from env (PEER_PORT,
// PEER_CLIENT_ID, PEER_CLIENT_SECRET); tells the parent "ready" over IPC.

import { createHash, generateKeyPairSync, randomBytes, sign, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { calculateJwkThumbprint, exportJWK } from 'jose';

const port = Number(process.env.PEER_PORT);
const clientId = process.env.PEER_CLIENT_ID ?? 'bench';
const secretHash = createHash('sha256')
  .update(process.env.PEER_CLIENT_SECRET ?? '')
  .digest();
const issuer = `http://127.0.0.1:${port}/`;

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = await exportJWK(publicKey);
const kid = await calculateJwkThumbprint(jwk, 'sha256');
const jwks = JSON.stringify({ keys: [{ ...jwk, kid, alg: 'RS256', use: 'sig' }] });
const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid })).toString('base64url');

function answer(res: import('node:http').ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/jwks') return answer(res, 200, jwks);
  if (req.method !== 'POST' || req.url !== '/token') return answer(res, 404, '{"error":"not_found"}');
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (raw += chunk));
  req.on('end', () => {
    const form = new URLSearchParams(raw);
    const presented = createHash('sha256')
      .update(form.get('client_secret') ?? '')
      .digest();
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== clientId ||
      !timingSafeEqual(presented, secretHash)
    ) {
      return answer(res, 401, '{"error":"invalid_client"}');
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: issuer,
      sub: clientId,
      aud: issuer,
      client_id: clientId,
      iat: now,
      exp: now + 900,
      jti: randomBytes(16).toString('base64url'),
    };
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    sign('sha256', Buffer.from(input), privateKey, (error, signature) => {
      if (error) return answer(res, 500, '{"error":"server_error"}');
      const token = `${input}.${signature.toString('base64url')}`;
      answer(res, 200, JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 900 }));
    });
  });
});

server.listen(port, '127.0.0.1', () => process.send?.('ready'));
