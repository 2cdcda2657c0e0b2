/**
 * The public face of domain/enterprise-access/ (Enterprise-Managed Authorization, DESIGN §20): what
 * the HTTP layer and the commands may use of it.
 */
export { ID_JAG_GRANT_PROFILE, JWT_BEARER_GRANT, redeemIdJag } from './id-jag-grant.js';
export { ID_JAG_TOKEN_TYPE, ID_TOKEN_TYPE, issueIdJag } from './id-jag-issuing.js';
export {
  createTrustedApp,
  deleteTrustedApp,
  getTrustedApp,
  listTrustedApps,
  type NewTrustedApp,
  type TrustedAppChanges,
  trustedAppSnapshot,
  updateTrustedApp,
} from './trusted-apps.js';
