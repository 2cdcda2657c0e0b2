import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { profilePages } from '../account/profile.js';
import { profileCredentialsPages } from '../account/profile-credentials.js';
import { profilePasskeyPages } from '../account/profile-passkeys.js';
import { profileSecondFactorPages } from '../account/profile-second-factor.js';
import { consentPages } from './consent.js';
import type { PageContext } from './context.js';
import { PageCookies } from './cookies.js';
import { Csrf } from './csrf.js';
import { devicePages } from './device.js';
import { emailVerificationPages } from './email-verification.js';
import { federationPages } from './federation.js';
import { continueScriptRoute } from './federation-continue.js';
import { federationLinkPages } from './federation-link.js';
import { impersonationPages } from './impersonation.js';
import { invitationPages } from './invitation.js';
import { loginPages } from './login.js';
import { passkeyScriptRoute } from './passkey-script.js';
import { passwordResetPages } from './password-reset.js';
import { secondFactorPages } from './second-factor.js';
import { signupPages } from './signup.js';

/**
 * What the hosted pages share: their cookies and CSRF tokens, under keys derived with the runtime
 * (Deps.pageKeys); nothing here logs them.
 */
export function pageContext(deps: Deps): PageContext {
  const cookies = new PageCookies(deps.config);
  return { deps, cookies, csrf: new Csrf(deps.pageKeys.csrf, cookies) };
}

/**
 * Sign-in: the cookie parser, and the hosted pages' routes that are not API operations (the forms
 * the pages post, their scripts). The authorization and logout endpoints are pages too, declared
 * as operations (http/declarations.ts) with the same context, and so are the JSON endpoints the
 * pages' passkey script calls and each SAML connection's metadata.
 */
export function signInRoutes(app: FastifyInstance, ctx: PageContext) {
  app.register(fastifyCookie, { secret: ctx.deps.pageKeys.cookie, hook: 'onRequest' });
  // Registered after the cookie plugin has loaded. Its parsing hook is not encapsulated, so it also runs for
  // the routes registered at the root (the declared /oauth/authorize and /oauth/logout among them).
  app.register(async (scope) => {
    loginPages(scope, ctx);
    secondFactorPages(scope, ctx);
    impersonationPages(scope, ctx);
    signupPages(scope, ctx);
    consentPages(scope, ctx);
    devicePages(scope, ctx);
    profilePages(scope, ctx);
    profileSecondFactorPages(scope, ctx);
    passwordResetPages(scope, ctx);
    emailVerificationPages(scope, ctx);
    invitationPages(scope, ctx);
    profileCredentialsPages(scope, ctx);
    federationPages(scope, ctx);
    federationLinkPages(scope, ctx);
    profilePasskeyPages(scope, ctx);
    passkeyScriptRoute(scope);
    continueScriptRoute(scope);
  });
}
