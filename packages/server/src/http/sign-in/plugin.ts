import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import type { PageContext } from './context.js';
import { PageCookies } from './cookies.js';
import { Csrf } from './csrf.js';
import { CONTINUE_SCRIPT } from './federation-continue.js';
import { pageScriptRoute } from './page-scripts.js';
import { PAGES } from './pages.js';
import { PASSKEY_SCRIPT_FILE } from './passkey-script.js';
import { registerPages } from './register-pages.js';

/**
 * What the hosted pages share: their cookies and CSRF tokens, under keys derived with the runtime
 * (Deps.pageKeys); nothing here logs them.
 */
export function pageContext(deps: Deps): PageContext {
  const cookies = new PageCookies(deps.config);
  return { deps, cookies, csrf: new Csrf(deps.pageKeys.csrf, cookies) };
}

/**
 * Sign-in: the cookie parser, the hosted pages (declared in pages.ts) and their two scripts. The
 * authorization and logout endpoints are pages too, declared as operations (http/declarations.ts)
 * with the same context, and so are the JSON endpoints the pages' passkey script calls and each
 * SAML connection's metadata.
 */
export function signInRoutes(app: FastifyInstance, ctx: PageContext) {
  app.register(fastifyCookie, { secret: ctx.deps.pageKeys.cookie, hook: 'onRequest' });
  // Registered after the cookie plugin has loaded. Its parsing hook is not encapsulated, so it also runs for
  // the routes registered at the root (the declared /oauth/authorize and /oauth/logout among them).
  app.register(async (scope) => {
    registerPages(scope, ctx, PAGES);
    pageScriptRoute(scope, PASSKEY_SCRIPT_FILE);
    pageScriptRoute(scope, CONTINUE_SCRIPT);
  });
}
