import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import type { ApiResource, EndUserRole } from '../types.js';

/** What audit entries hold of API resources and roles: the stored fields, camelCase. */

export const resourceSnapshot = (r: ApiResource) => ({
  ...fieldsOf(r, ['id', 'identifier', 'name', 'scopes', 'accessTokenTtl']),
  ...isoTimesOf(r, ['createdAt']),
});

export const roleSnapshot = (r: EndUserRole) => ({
  ...fieldsOf(r, ['id', 'name', 'description', 'permissions']),
  ...isoTimesOf(r, ['createdAt']),
});
