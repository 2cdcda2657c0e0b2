// An invoices API registered in Tessera as a resource with two scopes: GET /invoices needs invoices:read,
// POST /invoices invoices:write. @tessera/koa verifies each request's access token (signature from the
// org's key set, issuer, expiry, and an audience that names this API), then checks the route's scope.
// See README.md for how to run it against a local Tessera.
import cors from '@koa/cors';
import {
  authenticate,
  createVerifier,
  principalOf,
  protectedResource,
  requireScopes,
  whitelist,
} from '@tessera/koa';
import Koa from 'koa';

const issuer = process.env.TESSERA_ISSUER ?? 'http://localhost:4000/o/acme/'; // exact `iss`, trailing slash included
const port = Number(process.env.PORT ?? 3001);
// The resource indicator the API is registered under in Tessera: tokens for another API are refused.
const resource = process.env.RESOURCE ?? `http://localhost:${port}/invoices`;
// A browser app on this origin may call the API (CORS); unset, no other origin may.
const allowedOrigin = process.env.ALLOWED_ORIGIN;

const metadata = protectedResource({
  resource,
  authorizationServers: [issuer],
  scopesSupported: ['invoices:read', 'invoices:write'],
  resourceName: 'Invoices',
});
const verify = createVerifier({
  issuer,
  resource,
  // The default is ['user']: without 'client' here a machine token, even one for this resource, gets the 401.
  accept: ['user', 'client'],
});

const invoices = [{ id: 'inv_1', amount: 4200, currency: 'EUR' }];

const app = new Koa();
if (allowedOrigin) {
  // Before authenticate: a preflight OPTIONS carries no token. Only the one origin, and no cookies.
  app.use(
    cors({
      origin: (ctx) => (ctx.get('origin') === allowedOrigin ? allowedOrigin : ''),
      allowHeaders: ['authorization'],
    }),
  );
}
app.use(metadata); // GET /.well-known/oauth-protected-resource/invoices: where clients learn the issuer
app.use(
  authenticate(
    {
      verify,
      realm: 'invoices',
      resourceMetadata: metadata.metadataUrl,
      // Why a request was refused, for this log only: the 401 itself says nothing. Never the token.
      onRefused: (reason, ctx) => console.warn(`401 ${ctx.method} ${ctx.path}: ${reason.code}`),
    },
    whitelist([['/health', ['GET', 'HEAD']]]),
  ),
);
app.use(async (ctx, next) => {
  if (ctx.path === '/health') {
    ctx.body = { ok: true };
    return;
  }
  if (ctx.path !== '/invoices') return next();
  if (ctx.method === 'GET') {
    await requireScopes('invoices:read')(ctx, async () => {
      ctx.body = { caller: callerOf(ctx), invoices };
    });
  } else if (ctx.method === 'POST') {
    await requireScopes('invoices:write')(ctx, async () => {
      ctx.status = 201;
      ctx.body = { caller: callerOf(ctx), created: true };
    });
  }
});

/** Who called: a person (through an app) or a service (its own machine token). */
function callerOf(ctx) {
  const who = principalOf(ctx);
  return who.kind === 'user' ? { user: who.userId, tenant: who.tenantId } : { client: who.clientId };
}

app.listen(port, '127.0.0.1', () => console.log(`invoices API on http://localhost:${port}`));
