import {
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  MAX_RESULTS,
  patchScimUser,
  replaceScimUser,
  userRepresentation,
} from '../../domain/scim/index.js';
import { scimResourceOperations } from './resource-operations.js';

const UNIQUENESS = '`uniqueness`: the new userName or address is taken';

/**
 * The SCIM 2.0 Users endpoint of the org (RFC 7644 §3, DESIGN §19), for the directory whose bearer
 * token the request carries: create, read, list with `filter`, replace, patch, delete.
 */
export const SCIM_USER_OPERATIONS = scimResourceOperations({
  endpoint: 'Users',
  type: 'User',
  represent: userRepresentation,
  version: (u) => u.record.version,
  id: (u) => u.user.id,
  create: createScimUser,
  read: getScimUser,
  list: (ctx, query) => listScimUsers(ctx.deps, ctx.caller, query),
  replace: replaceScimUser,
  patch: patchScimUser,
  remove: deleteScimUser,
  docs: {
    id: 'the user id (`usr_…`)',
    etag: 'the version of the resource (`W/"<n>"`), for If-Match',
    notFound: 'no such user in this directory (another directory’s or org’s user included)',
    invalid:
      'a body that is not a User resource, or a value of the wrong type (`scimType` invalidSyntax, invalidValue; an address outside the domains of the directory’s connection is invalidValue)',
    conflict: UNIQUENESS,
    create: {
      summary: 'SCIM: provision a user (RFC 7644 §3.3)',
      description:
        'The user becomes a user of the org held by the directory, their address verified by it. An address another user of the org has (one this directory did not create) is 409 `uniqueness` until an owner adopts that user into the directory.',
      conflict:
        '`uniqueness`: the userName or address is taken (in the directory, or by another user of the org)',
    },
    list: {
      description: `\`filter\` (RFC 7644 §3.4.2.2: and, or, not, eq, ne, co, sw, ew, pr, gt, ge, lt, le, value paths), \`startIndex\` (1-based), \`count\` (at most ${MAX_RESULTS}), \`attributes\`, \`excludedAttributes\`. In creation order.`,
    },
    replace: {
      summary: 'SCIM: replace a user (RFC 7644 §3.5.1); `active: false` deactivates',
      description:
        'Deactivating ends every browser session and refresh token of the user at once and refuses their next sign-in; `active: true` reactivates. `If-Match` is honoured.',
    },
    patch: {
      summary: 'SCIM: change a user (RFC 7644 §3.5.2)',
      description:
        'PatchOp add, remove, replace with paths and value filters; also as Microsoft Entra sends them (`Replace`, `"False"`, path-less value objects). Deactivation as for PUT. `If-Match` is honoured.',
      invalid:
        'not a PatchOp message, a bad path (`invalidPath`), nothing at the path (`noTarget`), or a bad value',
    },
    remove: { summary: 'SCIM: delete a user (RFC 7644 §3.6); their sessions and tokens end with them' },
  },
});
