/** The scopes a console token may carry for the management API, each naming what it lets a client do. */
export type ManagementScope = 'org:read' | 'events:read' | 'org:write' | 'users:impersonate';

/** The management scopes with the words the consent page shows for each. */
export const MANAGEMENT_SCOPES: Readonly<Record<ManagementScope, string>> = {
  'org:read':
    'See your organizations: their settings, members, applications, users, signing keys and webhooks',
  'events:read': "Read your organizations' audit events",
  'org:write':
    'Change your organizations: create, update and delete settings, members, applications, users and webhooks, and rotate keys and secrets',
  'users:impersonate': "Sign in as your organizations' users",
};

/** Only first-party clients (made by an owner with the CLI or the management API) get this one. */
export const FIRST_PARTY_ONLY_SCOPE: ManagementScope = 'users:impersonate';

/** What a console client gets when its authorization request names no scope. */
export const DEFAULT_CONSOLE_SCOPE = 'openid profile email org:read events:read';

export const isManagementScope = (scope: string): scope is ManagementScope =>
  Object.hasOwn(MANAGEMENT_SCOPES, scope);

/** The scopes of a space-separated `scope` string, without duplicates or empty entries. */
export const scopeList = (scope: string): string[] => [...new Set(scope.split(' ').filter((s) => s !== ''))];

/** Whether a session granted `scope` carries `needed`. */
export const grants = (scope: string, needed: ManagementScope): boolean => scopeList(scope).includes(needed);
