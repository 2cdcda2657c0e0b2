import { ACCOUNT_ENDPOINTS } from './account/account.js';
import { organizationMembership } from './account/organization-membership.js';
import { passkeyRegistration, passkeyRegistrationOptions } from './account/profile-passkeys.js';
import { TENANT_ENDPOINTS } from './account/tenants.js';
import { BRANDING_ENDPOINTS } from './management/branding.js';
import { CLIENT_PERMISSION_ENDPOINTS } from './management/client-permissions.js';
import { CLIENT_ENDPOINTS } from './management/clients.js';
import { CONNECTION_ENDPOINTS } from './management/connections.js';
import { DIRECTORY_ENDPOINTS } from './management/directories.js';
import { DOMAIN_ENDPOINTS } from './management/domains.js';
import { listEvents } from './management/events.js';
import { startImpersonation } from './management/impersonation.js';
import { INVITATION_ENDPOINTS } from './management/invitations.js';
import { KEY_ENDPOINTS } from './management/keys.js';
import { LOG_STREAM_ENDPOINTS } from './management/log-streams.js';
import { MEMBER_ENDPOINTS } from './management/members.js';
import { ORGANIZATION_ENDPOINTS } from './management/organizations.js';
import { RESOURCE_ENDPOINTS } from './management/resources.js';
import { ROLE_ENDPOINTS } from './management/roles.js';
import { SERVICE_ACCOUNT_ENDPOINTS } from './management/service-accounts.js';
import { SETTINGS_ENDPOINTS } from './management/settings.js';
import { TEXTS_ENDPOINTS } from './management/texts.js';
import { TRUSTED_APP_ENDPOINTS } from './management/trusted-apps.js';
import { USER_ROLE_ENDPOINTS } from './management/user-roles.js';
import { USER_ENDPOINTS } from './management/users.js';
import { WEBHOOK_DELIVERY_ENDPOINTS } from './management/webhook-deliveries.js';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from './management/webhooks.js';
import { deviceAuthorization } from './oauth/device-authorization-endpoint.js';
import { introspect } from './oauth/introspect-endpoint.js';
import { pushedAuthorizationRequest } from './oauth/par-endpoint.js';
import { registration } from './oauth/register.js';
import { revoke } from './oauth/revoke-endpoint.js';
import { token } from './oauth/token-endpoint.js';
import { userinfoGet, userinfoPost } from './oauth/userinfo-endpoint.js';
import { jwks, oauthServerMetadata, openidConfiguration } from './oauth/well-known.js';
import { openApi } from './openapi/route.js';
import { health, readiness } from './operations/health.js';
import { prometheusMetrics } from './operations/metrics.js';
import type { Declaration } from './register-operations.js';
import { SCIM_DISCOVERY_OPERATIONS } from './scim/discovery.js';
import { SCIM_GROUP_OPERATIONS } from './scim/groups.js';
import { SCIM_USER_OPERATIONS } from './scim/users.js';
import { authorize, authorizePost } from './sign-in/authorize-endpoint.js';
import { brandingAsset } from './sign-in/branding-assets.js';
import { logoutGet, logoutPost } from './sign-in/logout.js';
import { passkeySignIn, passkeySignInOptions } from './sign-in/passkeys.js';
import { samlMetadata } from './sign-in/saml-metadata.js';

/**
 * Every HTTP operation of the API, each declared once with its handler, in the order /openapi.json
 * lists them: registered from this list (http/register-operations.ts) and nowhere else, and
 * documented from it (http/openapi/). The management and account endpoints are declared with
 * http/management/endpoint.ts, the others (OAuth, discovery, health, metrics, this document) with
 * http/served-operation.ts. Hosted pages' forms, the web console and preflights are routes, not
 * operations: they are registered where they are served. What the pages' scripts call as JSON (the
 * passkey ceremonies) and what an identity provider reads (SAML metadata) are operations.
 */
export const OPERATIONS: readonly Declaration[] = [
  openidConfiguration,
  oauthServerMetadata,
  jwks,
  authorize,
  authorizePost,
  token,
  pushedAuthorizationRequest,
  deviceAuthorization,
  revoke,
  introspect,
  registration,
  userinfoGet,
  userinfoPost,
  logoutGet,
  logoutPost,
  passkeySignInOptions,
  passkeySignIn,
  passkeyRegistrationOptions,
  passkeyRegistration,
  samlMetadata,
  brandingAsset,
  health,
  readiness,
  prometheusMetrics,
  openApi,
  ...ACCOUNT_ENDPOINTS,
  ...TENANT_ENDPOINTS,
  organizationMembership,
  createWebhook,
  listWebhooks,
  deleteWebhook,
  listEvents,
  ...ORGANIZATION_ENDPOINTS,
  ...SETTINGS_ENDPOINTS,
  ...TEXTS_ENDPOINTS,
  ...BRANDING_ENDPOINTS,
  ...MEMBER_ENDPOINTS,
  ...CLIENT_ENDPOINTS,
  ...KEY_ENDPOINTS,
  updateWebhook,
  ...RESOURCE_ENDPOINTS,
  ...ROLE_ENDPOINTS,
  ...USER_ROLE_ENDPOINTS,
  ...CLIENT_PERMISSION_ENDPOINTS,
  ...SERVICE_ACCOUNT_ENDPOINTS,
  ...USER_ENDPOINTS,
  ...INVITATION_ENDPOINTS,
  startImpersonation,
  ...WEBHOOK_DELIVERY_ENDPOINTS,
  ...CONNECTION_ENDPOINTS,
  ...LOG_STREAM_ENDPOINTS,
  ...TRUSTED_APP_ENDPOINTS,
  ...DIRECTORY_ENDPOINTS,
  ...DOMAIN_ENDPOINTS,
  ...SCIM_USER_OPERATIONS,
  ...SCIM_GROUP_OPERATIONS,
  ...SCIM_DISCOVERY_OPERATIONS,
];
