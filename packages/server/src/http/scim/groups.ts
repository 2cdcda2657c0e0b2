import {
  attributeList,
  createScimGroup,
  deleteScimGroup,
  getScimGroup,
  groupRepresentation,
  listScimGroups,
  MAX_RESULTS,
  patchScimGroup,
  replaceScimGroup,
} from '../../domain/scim/index.js';
import { scimResourceOperations } from './resource-operations.js';
import { oneQueryValue } from './scim-route.js';

/** The SCIM 2.0 Groups endpoint of the org (RFC 7644 §3), for the directory of the bearer token. */
export const SCIM_GROUP_OPERATIONS = scimResourceOperations({
  endpoint: 'Groups',
  type: 'Group',
  represent: groupRepresentation,
  version: (v) => v.group.version,
  id: (v) => v.group.id,
  create: createScimGroup,
  read: getScimGroup,
  list: (ctx, query) => {
    const excluded = attributeList(oneQueryValue(ctx.request, 'excludedAttributes')) ?? [];
    return listScimGroups(ctx.deps, ctx.caller, {
      ...query,
      withMembers: !excluded.some((a) => a.toLowerCase() === 'members'),
    });
  },
  replace: replaceScimGroup,
  patch: patchScimGroup,
  remove: deleteScimGroup,
  docs: {
    id: 'the group id (`grp_…`)',
    etag: 'the version of the group (`W/"<n>"`), for If-Match',
    notFound: 'no such group in this directory',
    invalid:
      'not a Group resource, or a member that is not a user of this directory (`scimType` invalidSyntax, invalidValue)',
    create: { summary: 'SCIM: create a group (RFC 7644 §3.3); members must be users of the directory' },
    list: {
      description: `\`filter\`, \`startIndex\`, \`count\` (at most ${MAX_RESULTS}), \`attributes\`, \`excludedAttributes\` (\`excludedAttributes=members\` reads no members).`,
    },
    replace: { summary: 'SCIM: replace a group (RFC 7644 §3.5.1); members’ roles follow its mapping' },
    patch: {
      summary: 'SCIM: change a group (RFC 7644 §3.5.2): displayName, members added or removed',
      description:
        'Members are added with `add` on `members`, removed with `remove` on `members[value eq "…"]` or on `members` with a value list (Microsoft Entra), or replaced. Members’ roles follow the group’s mapping.',
      invalid:
        'not a PatchOp message, a bad path, nothing at the path, or a member that is not a user of this directory',
    },
    remove: { summary: 'SCIM: delete a group (RFC 7644 §3.6); its members lose the roles it gave' },
  },
});
