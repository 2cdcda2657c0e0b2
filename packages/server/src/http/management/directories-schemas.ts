import { z } from 'zod';
import { PAGE_FIELDS } from './api-schemas.js';
import { IsoDateTime } from './instant-fields.js';

/** SCIM directories (DESIGN §19): what the management API takes and gives. */

export const CreateDirectoryBody = z.strictObject({
  name: z.string().max(100, 'must be at most 100 characters'),
  connection: z.string().max(100).nullable().optional().meta({
    description:
      'a connection of the org (`con_…`): the directory creates users only at addresses in its domains, and its sign-in links them',
  }),
});

export const DirectoryRecord = z.object({
  id: z.string().meta({ pattern: '^dir_' }),
  name: z.string(),
  connection: z.string().nullable(),
  scim_base_url: z
    .string()
    .meta({ description: 'the SCIM base URL to give the identity provider: `{org issuer}scim/v2/`' }),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});

export const DirectoryWithToken = DirectoryRecord.extend({
  token: z.string().meta({ description: 'the bearer token for the SCIM API: shown only in this answer' }),
});

export const DirectoryList = z.array(DirectoryRecord);

export const DirectoriesQuery = z.strictObject({ ...PAGE_FIELDS });

export const AdoptUserBody = z.strictObject({
  user_id: z.string().max(100).meta({ description: 'a user of the org (`usr_…`) no directory holds' }),
});

export const AdoptedUser = z.object({
  user_id: z.string(),
  directory_id: z.string(),
  user_name: z.string(),
});

export const DirectoryGroup = z.object({
  id: z.string().meta({ pattern: '^grp_' }),
  display_name: z.string(),
  external_id: z.string().nullable(),
  members: z.number().int().meta({ description: 'how many users are in the group' }),
  roles: z.array(z.string()).meta({ description: 'the org roles (`rol_…`) its members hold because of it' }),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});

export const DirectoryGroupList = z.array(DirectoryGroup);

export const DirectoryGroupsQuery = z.strictObject({ ...PAGE_FIELDS });

export const GroupRolesBody = z.strictObject({
  roles: z.array(z.string().max(100)).max(50, 'must hold at most 50 roles').meta({
    description:
      'end-user role ids of the org; members gain them, and lose the ones no longer listed (unless an owner gave them)',
  }),
});
