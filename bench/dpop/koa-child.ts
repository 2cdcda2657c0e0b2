// One Koa API per process: `koa-child.ts <bearer|bearer-uncached|dpop>`, started by run.ts over IPC.
// `GET /` → {"ok":true} behind @tessera/koa's authenticate, verifying against ISSUER's key set for
// AUDIENCE: as shipped; with the verifier's result cache off (one RSA check per request); with
// `dpop: 'allowed'` and the default in-memory replay store.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, createVerifier } from '@tessera/koa';
import Koa from 'koa';
import { createVerifierWith } from '../../packages/koa/src/verifier.js';

const mode = process.argv[2];
const issuer = process.env.ISSUER;
const audience = process.env.AUDIENCE;
const MODES = ['bearer', 'bearer-uncached', 'dpop'];
if (!MODES.includes(mode as string) || !issuer || !audience || process.send === undefined) {
  console.error(`usage: ISSUER=… AUDIENCE=… (started with IPC) koa-child.ts <${MODES.join('|')}>`);
  process.exit(2);
}
const app = new Koa();
const verify =
  mode === 'bearer-uncached'
    ? createVerifierWith({ issuer, clientId: audience }, { cacheSize: 0 })
    : createVerifier({ issuer, clientId: audience });
app.use(authenticate({ verify, realm: 'bench', ...(mode === 'dpop' ? { dpop: 'allowed' as const } : {}) }));
app.use((ctx) => {
  ctx.body = { ok: true };
});
const server = createServer(app.callback());
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
