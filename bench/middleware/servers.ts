// One benchmark target per process: `node --conditions=tessera-source --import tsx servers.ts <target>`,
// started by run.ts with an IPC channel (bench/support/children.ts), which also stops it if run.ts dies.
// It listens on 127.0.0.1 (port from the OS), reports the port over IPC, and serves
// `GET /` → {"ok":true} behind the named middleware, verifying against ISSUER's key set for AUDIENCE.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, createVerifier } from '@tessera/koa';
import express from 'express';
import { auth } from 'express-oauth2-jwt-bearer';
import jwksRsa from 'jwks-rsa';
import Koa from 'koa';
import koaJwt from 'koa-jwt';
import { createVerifierWith } from '../../packages/koa/src/verifier.js';
import { TARGETS, type Target } from './targets.js';

const ok = { ok: true };

function koaApp(target: Target, issuer: string, audience: string): Koa {
  const app = new Koa();
  const jwksUri = `${issuer}.well-known/jwks.json`;
  if (target === 'koa+authenticate') {
    app.use(authenticate({ verify: createVerifier({ issuer, clientId: audience }), realm: 'bench' }));
  } else if (target === 'koa+authenticate(no result cache)') {
    const verify = createVerifierWith({ issuer, clientId: audience }, { cacheSize: 0 });
    app.use(authenticate({ verify, realm: 'bench' }));
  } else if (target === 'koa+koa-jwt+jwks-rsa') {
    const secret = jwksRsa.koaJwtSecret({ jwksUri, cache: true, cacheMaxAge: 600_000, rateLimit: true });
    app.use(koaJwt({ secret, issuer, audience, algorithms: ['RS256'] }));
  }
  app.use((ctx) => {
    ctx.body = ok;
  });
  return app;
}

function expressApp(issuer: string, audience: string) {
  const app = express();
  app.disable('x-powered-by');
  app.use(auth({ issuer, audience, jwksUri: `${issuer}.well-known/jwks.json`, tokenSigningAlg: 'RS256' }));
  app.get('/', (_req, res) => {
    res.json(ok);
  });
  return app;
}

function main(): void {
  const target = process.argv[2] as Target;
  const issuer = process.env.ISSUER;
  const audience = process.env.AUDIENCE;
  if (
    !TARGETS.includes(target) ||
    issuer === undefined ||
    audience === undefined ||
    process.send === undefined
  ) {
    console.error(`usage: ISSUER=… AUDIENCE=… (started with IPC) servers.ts <${TARGETS.join('|')}>`);
    process.exit(2);
  }
  const handler =
    target === 'express+express-oauth2-jwt-bearer'
      ? expressApp(issuer, audience)
      : koaApp(target, issuer, audience).callback();
  const server = createServer(handler);
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
}

main();
