import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { profilePages } from '../account/profile.js';
import { profileCredentialsPages } from '../account/profile-credentials.js';
import { profilePasskeyPages } from '../account/profile-passkeys.js';
import { profileSecondFactorPages } from '../account/profile-second-factor.js';
import { introspectEndpoint } from '../oauth/introspect-endpoint.js';
import { revokeEndpoint } from '../oauth/revoke-endpoint.js';
import { userinfoEndpoint } from '../oauth/userinfo-endpoint.js';
import { authorizeEndpoint } from './authorize-endpoint.js';
import { consentPages } from './consent.js';
import { PageCookies } from './cookies.js';
import { Csrf } from './csrf.js';
import { emailVerificationPages } from './email-verification.js';
import { federationPages } from './federation.js';
import { continueScriptRoute } from './federation-continue.js';
import { impersonationPages } from './impersonation.js';
import { invitationPages } from './invitation.js';
import { loginPages } from './login.js';
import { logoutEndpoint } from './logout.js';
import { passkeyScriptRoute } from './passkey-script.js';
import { passkeySignInEndpoints } from './passkeys.js';
import { passwordResetPages } from './password-reset.js';
import { secondFactorPages } from './second-factor.js';
import { signupPages } from './signup.js';

/**
 * Sign-in: the authorization endpoint and hosted pages, revocation, introspection, and the bearer APIs the SDK
 * calls. (The grants live in the token endpoint's registry.) The page keys come derived with the
 * runtime (Deps.pageKeys); nothing here logs them.
 */
export function signInRoutes(app: FastifyInstance, deps: Deps) {
  const keys = deps.pageKeys;
  const cookies = new PageCookies(deps.config);
  const ctx = { deps, cookies, csrf: new Csrf(keys.csrf, cookies) };
  app.register(fastifyCookie, { secret: keys.cookie, hook: 'onRequest' });
  // A child context registered after the cookie plugin, so its parsing hook runs for these routes.
  app.register(async (scope) => {
    authorizeEndpoint(scope, ctx);
    loginPages(scope, ctx);
    secondFactorPages(scope, ctx);
    impersonationPages(scope, ctx);
    signupPages(scope, ctx);
    consentPages(scope, ctx);
    logoutEndpoint(scope, ctx);
    profilePages(scope, ctx);
    profileSecondFactorPages(scope, ctx);
    passwordResetPages(scope, ctx);
    emailVerificationPages(scope, ctx);
    invitationPages(scope, ctx);
    profileCredentialsPages(scope, ctx);
    passkeySignInEndpoints(scope, ctx);
    federationPages(scope, ctx);
    profilePasskeyPages(scope, ctx);
    passkeyScriptRoute(scope);
    continueScriptRoute(scope);
    revokeEndpoint(scope, deps);
    introspectEndpoint(scope, deps);
    userinfoEndpoint(scope, deps);
  });
}
