import { z } from 'zod';
import * as tenants from '../account/tenants.js';
import * as api from '../management/api-schemas.js';
import * as branding from '../management/branding-schemas.js';
import * as clients from '../management/clients-schemas.js';
import * as connections from '../management/connections-schemas.js';
import * as directories from '../management/directories-schemas.js';
import * as domains from '../management/domains-schemas.js';
import * as impersonation from '../management/impersonation-schemas.js';
import * as invitations from '../management/invitations-schemas.js';
import * as keys from '../management/keys-schemas.js';
import * as logStreams from '../management/log-streams-schemas.js';
import * as members from '../management/members-schemas.js';
import * as organizations from '../management/organizations-schemas.js';
import * as resources from '../management/resources-schemas.js';
import * as roles from '../management/roles-schemas.js';
import * as serviceAccounts from '../management/service-accounts-schemas.js';
import * as settings from '../management/settings-schemas.js';
import * as texts from '../management/texts-schemas.js';
import * as trustedApps from '../management/trusted-apps-schemas.js';
import * as users from '../management/users-schemas.js';
import * as webhookDeliveries from '../management/webhook-delivery-schemas.js';
import * as webhooks from '../management/webhooks-schemas.js';
import * as registration from '../oauth/registration-request.js';
import * as passkeys from '../sign-in/passkey-schemas.js';
import * as described from './described-schemas.js';

/**
 * The modules that declare request and response schemas. Every zod schema one of them exports
 * under a PascalCase name is a named component of the document (`#/components/schemas/<name>`),
 * wherever an operation uses it, directly or inside another schema. A module of schemas that is
 * not listed here still works: its schemas get names made from the operations that use them.
 */
const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  described,
  registration,
  tenants,
  api,
  organizations,
  settings,
  texts,
  branding,
  members,
  clients,
  resources,
  roles,
  serviceAccounts,
  users,
  invitations,
  keys,
  webhooks,
  webhookDeliveries,
  impersonation,
  connections,
  logStreams,
  trustedApps,
  directories,
  domains,
  passkeys,
];

const PASCAL_CASE = /^[A-Z][A-Za-z0-9]*$/;

/** Each exported schema with its export name; two schemas exported under one name are an error. */
export function schemaNames(modules = SCHEMA_MODULES): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const taken = new Map<string, z.ZodType>();
  for (const module of modules) {
    for (const [name, value] of Object.entries(module)) {
      if (!PASCAL_CASE.test(name) || !(value instanceof z.ZodType) || names.has(value)) continue;
      const other = taken.get(name);
      if (other !== undefined && other !== value) {
        throw new Error(`two schemas are exported as ${name}: rename one, the document names both`);
      }
      taken.set(name, value);
      names.set(value, name);
    }
  }
  return names;
}
