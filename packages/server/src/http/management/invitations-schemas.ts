import { z } from 'zod';
import { checkEmail } from '../../domain/directory/index.js';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt } from './instant-fields.js';
import { checkedBy } from './organizations-schemas.js';

/**
 * /organizations/{org}/invitations (DESIGN §16): the bodies and query the routes validate with and
 * the responses they send, declared once; the OpenAPI document is generated from the same objects.
 */

const InviteeEmail = checkedBy('email', checkEmail).meta({
  format: 'email',
  maxLength: 254,
  description: 'the address invited; whether it has an account is never part of the answer',
});

const SendMail = z.boolean('must be true or false').meta({
  description:
    'true: the link is mailed to the address (and never shown); false: the answer carries the one-time `url` to pass on',
});

export const CreateInvitationBody = z.strictObject({
  email: InviteeEmail,
  roles: z.array(z.string().max(100)).max(20, 'must hold at most 20 roles').optional().meta({
    description:
      "role ids (`rol_…`) of the org's end-user roles the invitee holds once accepted (added to any they hold); no duplicates",
  }),
  send_mail: SendMail,
});

/** POST /organizations/{org}/members: a console member invitation (nobody is added without accepting). */
export const AddMemberBody = z.strictObject({
  email: InviteeEmail,
  role: z
    .enum(['owner', 'member'], 'must be owner or member')
    .meta({ description: 'the role once accepted' }),
  send_mail: SendMail.optional().meta({ description: 'as for invitations; default true' }),
});

export const InvitationsQuery = z.strictObject({
  ...PAGE_FIELDS,
  kind: z
    .enum(['user', 'member'], 'must be user or member')
    .optional()
    .meta({ description: 'only invitations to be a user of the org, or a console member of it' }),
  state: z
    .enum(['pending', 'accepted', 'expired'], 'must be pending, accepted or expired')
    .optional()
    .meta({ description: 'only invitations in this state' }),
});

export const Invitation = z.object({
  id: z.string().meta({ pattern: '^inv_' }),
  kind: z.enum(['user', 'member']).meta({
    description: '`user`: to be a user of the org (its hosted pages); `member`: a console member of it',
  }),
  email: z.string(),
  role: z
    .enum(['owner', 'member'])
    .nullable()
    .meta({ description: '`member` invitations: the console role once accepted; null for `user` ones' }),
  roles: z.array(z.string().meta({ pattern: '^rol_' })).meta({
    description:
      '`user` invitations: the end-user role ids granted on accepting, as invited (a role deleted since is skipped); empty when none',
  }),
  state: z.enum(['pending', 'accepted', 'expired']),
  mailed: z.boolean().meta({ description: 'the link went out by mail' }),
  created_at: CreatedAt,
  expires_at: z.string().meta({ format: 'date-time', description: '7 days after creation' }),
  accepted_at: z
    .string()
    .meta({ format: 'date-time' })
    .nullable()
    .meta({ description: 'when it was accepted; null while it is not' }),
  accepted_by: z.string().nullable().meta({ description: 'the `usr_` id of who accepted' }),
});

export const InvitationList = z.array(Invitation);

export const CreatedInvitation = Invitation.extend({
  url: z.string().optional().meta({
    format: 'uri',
    description: 'the one-time link, only when `send_mail` was false; shown this once',
  }),
});
