import type { ApiResource, EndUserRole } from '../types.js';

/** What audit entries hold of API resources and roles: the stored fields, camelCase. */

export const resourceSnapshot = (r: ApiResource) => ({
  id: r.id,
  identifier: r.identifier,
  name: r.name,
  scopes: r.scopes,
  accessTokenTtl: r.accessTokenTtl,
  createdAt: new Date(r.createdAt).toISOString(),
});

export const roleSnapshot = (r: EndUserRole) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  permissions: r.permissions,
  createdAt: new Date(r.createdAt).toISOString(),
});
