/**
 * The public face of domain/resources/: what the HTTP layer, the worker and the commands may use of
 * it. Everything else in the folder is the feature's own (the lint refuses a deeper import from
 * outside the domain).
 */
export { ACCESS_TOKEN_TTL } from './access-token-ttl.js';
export {
  createApiResource,
  deleteApiResource,
  getApiResource,
  listApiResources,
  updateApiResource,
} from './api-resources.js';
export { getClientPermissions, setPermissionsOfClient } from './client-permissions.js';
export { resourceScopesOf } from './discovery-scopes.js';
export { machineAudience } from './machine-audience.js';
export { requestedResources } from './requested-resources.js';
export { resourceIdentifierProblem } from './resource-identifier.js';
export { MAX_SCOPE_DESCRIPTION, scopeNameProblem } from './resource-scope-names.js';
export { createRole, deleteRole, getRole, listRoles, updateRole } from './roles.js';
export { getUserRoles, setRolesOfUser } from './user-roles.js';
