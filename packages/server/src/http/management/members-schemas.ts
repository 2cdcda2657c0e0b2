import { z } from 'zod';
import { PAGE_FIELDS } from './api-schemas.js';

const Role = z.enum(['owner', 'member'], 'must be owner or member');

/** GET /organizations/{org}/members: paging only. */
export const MembersQuery = z.strictObject({ ...PAGE_FIELDS });

export const Member = z.object({
  user_id: z.string().meta({ pattern: '^usr_', description: 'the console user' }),
  email: z.string(),
  role: z.enum(['owner', 'member']),
});

export const MemberList = z.array(Member);

export const UpdateMemberBody = z.strictObject({ role: Role });
