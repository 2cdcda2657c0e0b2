import { ACCOUNT_ENDPOINTS } from './account/account.js';
import { organizationMembership } from './account/organization-membership.js';
import { TENANT_ENDPOINTS } from './account/tenants.js';
import { CLIENT_PERMISSION_ENDPOINTS } from './management/client-permissions.js';
import { CLIENT_ENDPOINTS } from './management/clients.js';
import { CONNECTION_ENDPOINTS } from './management/connections.js';
import { type Endpoint, isEndpoint } from './management/endpoint.js';
import { listEvents } from './management/events.js';
import { startImpersonation } from './management/impersonation.js';
import { INVITATION_ENDPOINTS } from './management/invitations.js';
import { KEY_ENDPOINTS } from './management/keys.js';
import { MEMBER_ENDPOINTS } from './management/members.js';
import { ORGANIZATION_ENDPOINTS } from './management/organizations.js';
import { RESOURCE_ENDPOINTS } from './management/resources.js';
import { ROLE_ENDPOINTS } from './management/roles.js';
import { SERVICE_ACCOUNT_ENDPOINTS } from './management/service-accounts.js';
import { SETTINGS_ENDPOINTS } from './management/settings.js';
import { USER_ROLE_ENDPOINTS } from './management/user-roles.js';
import { USER_ENDPOINTS } from './management/users.js';
import { WEBHOOK_DELIVERY_ENDPOINTS } from './management/webhook-deliveries.js';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from './management/webhooks.js';
import { API_OPERATIONS } from './openapi/api-operations.js';
import { OAUTH_OPERATIONS } from './openapi/oauth-operations.js';
import type { Operation } from './openapi/operation.js';

/**
 * Every HTTP operation of the API, in the order /openapi.json lists them. An endpoint (declared
 * with its handler, http/management/endpoint.ts) is registered from this list and nowhere else;
 * the other operations (OAuth, health, metrics, this document) are documented here and registered
 * by hand, and a test checks them against the routes that exist.
 */
export const OPERATIONS: readonly Operation[] = [
  ...OAUTH_OPERATIONS,
  ...API_OPERATIONS,
  ...ACCOUNT_ENDPOINTS,
  ...TENANT_ENDPOINTS,
  organizationMembership,
  createWebhook,
  listWebhooks,
  deleteWebhook,
  listEvents,
  ...ORGANIZATION_ENDPOINTS,
  ...SETTINGS_ENDPOINTS,
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
];

/** The declared endpoints: the routes app.ts registers in one loop. */
export const ENDPOINTS: readonly Endpoint[] = OPERATIONS.filter(isEndpoint);
