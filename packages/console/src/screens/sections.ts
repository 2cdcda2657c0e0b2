/** The org screens in the navigation, in order; `owners` screens are the API's owner-only lists. */
export const SECTIONS = [
  { path: 'settings', label: 'Settings', owners: false },
  { path: 'texts', label: 'Texts', owners: true },
  { path: 'branding', label: 'Branding', owners: true },
  { path: 'clients', label: 'Clients', owners: true },
  { path: 'service-accounts', label: 'Service accounts', owners: true },
  { path: 'users', label: 'Users', owners: true },
  { path: 'resources', label: 'API resources', owners: true },
  { path: 'roles', label: 'Roles', owners: true },
  { path: 'invitations', label: 'Invitations', owners: true },
  { path: 'connections', label: 'Connections', owners: true },
  { path: 'trusted-apps', label: 'Trusted apps', owners: true },
  { path: 'domains', label: 'Domains', owners: true },
  { path: 'directories', label: 'SCIM directories', owners: true },
  { path: 'members', label: 'Members', owners: false },
  { path: 'keys', label: 'Signing keys', owners: true },
  { path: 'webhooks', label: 'Webhooks', owners: true },
  { path: 'events', label: 'Audit log', owners: true },
  { path: 'log-streams', label: 'Log streams', owners: true },
] as const;

export type Section = (typeof SECTIONS)[number]['path'];
