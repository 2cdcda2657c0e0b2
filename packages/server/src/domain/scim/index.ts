/**
 * The public face of domain/scim/ (SCIM 2.0 inbound provisioning, DESIGN §19): what the HTTP layer
 * and the commands use of it.
 */

export { attributeList, project } from './attributes.js';
export type { ScimCaller } from './deps.js';
export {
  adoptUser,
  authenticateDirectory,
  createDirectory,
  deleteDirectory,
  pageOfDirectories,
  requireDirectory,
  rotateDirectoryToken,
} from './directories.js';
export { MAX_PAYLOAD_BYTES, resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
export { MAX_FILTER_LENGTH } from './filter.js';
export {
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  groupRepresentation,
  listScimGroups,
  MAX_MEMBERS,
  type MappedGroup,
  mapGroupToRoles,
  pageOfDirectoryGroups,
  patchScimGroup,
  replaceScimGroup,
  type ScimGroupView,
} from './groups.js';
export { type ListPage, type ListQuery, MAX_RESULTS } from './listing.js';
export { MAX_PATCH_OPERATIONS } from './patch.js';
export { ENTERPRISE_SCHEMA, GROUP_SCHEMA, LIST_SCHEMA, USER_SCHEMA } from './resource.js';
export {
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
  type ScimUser,
  scimBaseUrl,
  userRepresentation,
} from './users.js';
export { etagOf, type ScimCreate, type ScimDelete, type ScimRead, type ScimWrite } from './versions.js';
