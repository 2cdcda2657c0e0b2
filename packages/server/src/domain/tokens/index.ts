/**
 * The public face of domain/tokens/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { type SessionTokenType, type VerifiedAccess, verifyAccessToken } from './access-tokens.js';
export { ASSERTION_ALGORITHMS, JWT_BEARER_ASSERTION } from './client-assertions.js';
export {
  authenticateClient,
  authenticateMachineClient,
  authenticateSigningClient,
  CLIENT_AUTH_METHODS,
  type PresentedClient,
} from './client-auth.js';
export { requireGrant } from './client-grants.js';
export { type NamedClient, originAllowedFor, originOfSomeClient } from './cross-origin.js';
export { introspectToken } from './introspection.js';
export { BACKCHANNEL_LOGOUT_EVENT, logoutTokenFor } from './logout-tokens.js';
export { issueMachineToken } from './machine-tokens.js';
export { type ManagementPrincipal, verifyManagementToken } from './management-principal.js';
export { CLAIMS_SUPPORTED, claimScopes } from './openid-claims.js';
export { rotateRefreshToken } from './refresh-tokens.js';
export { revokeToken } from './revocation.js';
export { serviceAccountScope } from './service-account-tokens.js';
export { SWITCH_TENANT_GRANT, switchTenant } from './switch-tenant.js';
export { promoteToken, TOKEN_EXCHANGE_GRANT } from './token-exchange.js';
export type { TokenSet } from './user-tokens.js';
export { signedUserInfo, userInfo } from './userinfo.js';
