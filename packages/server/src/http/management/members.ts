import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  addOrgMember,
  changeMemberRole,
  listMembers,
  type Member,
  removeMember,
} from '../../domain/directory/members.js';
import { jsonBody } from './api-input.js';
import {
  AddMemberBody,
  MembersQuery,
  type Member as MemberView,
  UpdateMemberBody,
} from './members-schemas.js';
import { memberCaller, ownerCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';

const view = (m: Member): z.output<typeof MemberView> => ({
  user_id: m.userId,
  email: m.email,
  role: m.role,
});

type OrgParams = { Params: { org: string } };
type MemberParams = { Params: { org: string; id: string } };

/**
 * An org's members (console users): members list them; owners add an existing console user,
 * change a role, or end a membership (members 403). The last owner stays (409 conflict).
 */
export function memberRoutes(app: FastifyInstance, deps: Deps) {
  app.get<OrgParams>('/organizations/:org/members', async (request, reply) => {
    const { org } = await memberCaller(deps, request, 'org:read');
    const list = pagedQuery(deps, MembersQuery, request);
    const page = await listMembers(deps, org, { page: list.query.page, perPage: list.query.per_page });
    return sendPage(deps, request, reply, { ...list, entries: page.entries.map(view), total: page.total });
  });

  app.post<OrgParams>('/organizations/:org/members', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const input = jsonBody('invalid_request', AddMemberBody, request.body);
    const member = await addOrgMember(
      deps,
      org,
      { email: input.email, existing: true },
      input.role,
      actor,
      'conflict',
    );
    return reply.code(201).header('cache-control', 'no-store').send(view(member));
  });

  app.patch<MemberParams>('/organizations/:org/members/:id', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const input = jsonBody('invalid_request', UpdateMemberBody, request.body);
    const member = await changeMemberRole(deps, org, request.params.id, input.role, actor);
    reply.header('cache-control', 'no-store');
    return view(member);
  });

  app.delete<MemberParams>('/organizations/:org/members/:id', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    await removeMember(deps, org, request.params.id, actor);
    return reply.code(204).header('cache-control', 'no-store').send();
  });
}
