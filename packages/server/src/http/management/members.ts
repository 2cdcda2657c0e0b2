import type { z } from 'zod';
import { changeMemberRole, listMembers, type Member, removeMember } from '../../domain/directory/index.js';
import { createInvitation } from '../../domain/teams/index.js';
import { created, endpoint, noContent, ok } from './endpoint.js';
import { createdView } from './invitations.js';
import { AddMemberBody, CreatedInvitation } from './invitations-schemas.js';
import {
  MemberList,
  Member as MemberSchema,
  MembersQuery,
  type Member as MemberView,
  UpdateMemberBody,
} from './members-schemas.js';
import {
  apiError,
  badQuery,
  changeRefusals,
  jsonRequest,
  MANAGEMENT,
  noOrgOfMember,
  ORG,
  ownersRefusals,
  pagedList,
  unauthorized,
} from './responses.js';

const view = (m: Member): z.output<typeof MemberView> => ({
  user_id: m.userId,
  email: m.email,
  role: m.role,
});

const MEMBER = { ...ORG, id: 'the member’s console user id (`usr_…`)' } as const;
const noMember = apiError('`not_found`: no such org, or no such member of it');
const lastOwner = apiError('`conflict`: the member is the org’s last owner');
/**
 * Who the org's people are is for people: a service account (which holds no membership) never
 * invites, promotes, demotes or removes a member, whatever its scopes (403 forbidden).
 */
const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners', people: true } as const;

/**
 * An org's members (console users): members and service accounts list them; owners — people
 * only — invite someone (a member invitation: nobody is added without accepting, and the answer is
 * the same whether the address has a console account or not), change a role, or end a membership
 * (members 403). The last owner stays (409 conflict).
 */
export const MEMBER_ENDPOINTS = [
  endpoint(
    {
      ...MANAGEMENT,
      scope: 'org:read',
      who: 'members',
      method: 'get',
      path: '/organizations/:org/members',
      operationId: 'listMembers',
      summary: 'The org’s members by email (members too)',
      params: ORG,
      query: MembersQuery,
      responses: {
        200: pagedList('one page of members', MemberList),
        400: badQuery,
        401: unauthorized,
        404: noOrgOfMember,
      },
    },
    async ({ deps, caller, query, page }) => {
      const found = await listMembers(deps, caller.org, { page: query.page, perPage: query.per_page });
      return page(found.entries.map(view), found.total);
    },
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/members',
      operationId: 'addMember',
      summary: 'Invite someone to be a console member of the org',
      description:
        'Adds nobody: it creates a member invitation (`kind` `member`, 7 days, single use) that the ' +
        'invitee accepts on the console’s hosted pages, by signing in, or by choosing a name and a ' +
        'password when the address has no console account. The answer is the same whether the ' +
        'address has an account or not. The link is mailed (`send_mail`, default true) or returned ' +
        'once as `url`. Accepting makes them a member (`membership.created`). Audited as ' +
        '`invitation.created`; listed and withdrawn under `/organizations/{org}/invitations`. ' +
        '(`tessera member add` on the server adds an existing or new console user at once.)',
      params: ORG,
      body: jsonRequest(AddMemberBody),
      responses: {
        201: { description: 'invited; `url` only when `send_mail` was false', schema: CreatedInvitation },
        ...changeRefusals(noOrgOfMember),
        409: apiError(
          '`conflict`: the address is a member already (PATCH changes a role), or has a pending member invitation',
        ),
      },
    },
    async ({ deps, caller, body: input }) => {
      const invitation = await createInvitation(
        deps,
        caller.org,
        { kind: 'member', email: input.email, role: input.role, sendMail: input.send_mail ?? true },
        caller.actor,
      );
      return created(createdView(invitation));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'patch',
      path: '/organizations/:org/members/:id',
      operationId: 'updateMember',
      summary: 'Change a member’s role',
      description: 'Audited as `membership.updated` (with `previous` and `changes`) when the role changes.',
      params: MEMBER,
      body: jsonRequest(UpdateMemberBody),
      responses: {
        200: { description: 'the member as they are now', schema: MemberSchema },
        ...changeRefusals(noMember),
        409: lastOwner,
      },
    },
    async ({ deps, caller, params, body: input }) => {
      const member = await changeMemberRole(deps, caller.org, params.id, input.role, caller.actor);
      return ok(view(member));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'delete',
      path: '/organizations/:org/members/:id',
      operationId: 'removeMember',
      summary: 'End a membership (the console user stays)',
      description: 'Audited as `membership.deleted`.',
      params: MEMBER,
      responses: {
        204: { description: 'removed; no body' },
        ...ownersRefusals(noMember),
        409: lastOwner,
      },
    },
    async ({ deps, caller, params }) => {
      await removeMember(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
];
