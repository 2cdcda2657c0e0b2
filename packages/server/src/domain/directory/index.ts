/**
 * The public face of domain/directory/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { allowedOriginsOf, canonicalOrigin, MAX_ALLOWED_ORIGINS, ORIGIN_RULE } from './allowed-origins.js';
export { ClientKeySets } from './client-key-sets.js';
export {
  ClientMetadataDocuments,
  type FetchedDocument,
  METADATA_DOCUMENT_MAX_BYTES,
  METADATA_DOCUMENT_MAX_FETCHES,
  METADATA_DOCUMENT_MAX_FETCHES_PER_HOST,
  METADATA_DOCUMENT_TIMEOUT_MS,
  type MetadataDocumentFetcher,
} from './client-metadata-documents.js';
export {
  createClient,
  defaultGrantTypes,
  deleteClient,
  GRANT_TYPES,
  getClient,
  grantTypesProblem,
  listClients,
  listLogoutDeliveries,
  rotateClientSecret,
  updateClient,
} from './clients.js';
export { ensureConsoleClient } from './console-client.js';
export {
  DEFAULT_CONSOLE_SCOPE,
  FIRST_PARTY_ONLY_SCOPE,
  grants,
  MANAGEMENT_SCOPES,
  type ManagementScope,
  scopeList,
} from './console-scopes.js';
export { addOrgMember, changeMemberRole, listMembers, type Member, removeMember } from './members.js';
export { type MemberAnswer, requireBoundOrg, requireOrgMember, requireOrgOwner } from './org-access.js';
export { type OrgCache, orgOfSlug } from './org-cache.js';
export { membershipOf } from './org-membership.js';
export { type OrgSettings, orgSettings, updateOrgSettings } from './org-settings.js';
export { CONSOLE_SLUG, createOrg, ensureConsoleOrg, findOrg, listOrgsOfUser, requireOrg } from './orgs.js';
export {
  createProfileKey,
  type OwnProfileInput,
  redeemProfileKey,
  requireUser,
  updateOwnProfile,
  userRecord,
} from './profile.js';
export {
  isLoopbackRedirectHost,
  MAX_REDIRECT_URI_LENGTH,
  MAX_REDIRECT_URIS,
  redirectUriProblem,
} from './redirect-uris.js';
export { type RegistrationMetadata, registerClient, registrationOpen } from './registration.js';
export { IDENTITY_SCOPES, ownScopes, SCOPES } from './scopes.js';
export {
  createServiceAccount,
  deleteServiceAccount,
  getServiceAccount,
  listServiceAccounts,
  rotateServiceAccountSecret,
  SERVICE_ACCOUNT_SCOPES,
  type ServiceAccount,
} from './service-accounts.js';
export {
  canonicalDomain,
  DOMAIN_RULE,
  MAX_SIGN_UP_DOMAINS,
  SIGN_UP_POLICIES,
  signUpOffered,
  signUpRefusal,
} from './sign-up-policy.js';
export {
  checkAddress,
  checkBirthdate,
  checkClaimText,
  checkClaimUrl,
  checkLocale,
  checkPhoneNumber,
  checkZoneinfo,
  type StandardClaimChanges,
} from './standard-claims.js';
export { createTenant, deleteTenant, listTenants, updateTenant } from './tenants.js';
export { createUser, deleteUser, endSessionsOfUser, listUsers, requireOrgUser, updateUser } from './users.js';
export { checkEmail, checkName, checkSlug, PASSWORD_LENGTH } from './validate.js';
export { disableWebhook } from './webhook-disable.js';
export { createWebhook, deleteWebhook, listWebhooks, updateWebhook, type Webhook } from './webhooks.js';
