import type { z } from 'zod';
import { isoTime, isoTimeOrNull } from '../../domain/iso-time.js';
import {
  type CreatedInvitation,
  createInvitation,
  type Invitation,
  listInvitations,
  requireInvitation,
  revokeInvitation,
} from '../../domain/teams/index.js';
import { managementInput } from './api-input.js';
import { created, endpoint, noContent, ok } from './endpoint.js';
import {
  CreatedInvitation as CreatedInvitationSchema,
  type CreatedInvitation as CreatedView,
  CreateInvitationBody,
  InvitationList,
  Invitation as InvitationSchema,
  InvitationsQuery,
  type Invitation as InvitationView,
} from './invitations-schemas.js';
import { apiError, badQuery, jsonRequest, MANAGEMENT, noOrg, ORG, ownersRefusals } from './responses.js';

/** The API's view; withdrawn invitations never reach it (the store leaves them out). */
export const invitationView = (i: Invitation): z.output<typeof InvitationView> => ({
  id: i.id,
  kind: i.kind,
  email: i.email,
  role: i.role,
  roles: i.roles,
  state: i.state === 'revoked' ? 'expired' : i.state,
  mailed: i.mailed,
  created_at: isoTime(i.createdAt),
  expires_at: isoTime(i.expiresAt),
  accepted_at: isoTimeOrNull(i.acceptedAt),
  accepted_by: i.acceptedBy,
});

/** The invitation as created, with its one-time `url` when it was not mailed. */
export const createdView = (made: CreatedInvitation): z.output<typeof CreatedView> => ({
  ...invitationView(made.invitation),
  ...(made.url === null ? {} : { url: made.url }),
});

/** The filters in the order the Link URLs carry them. */
const FILTERS = ['kind', 'state'] as const;

const INVITATION = { ...ORG, id: 'the invitation id (`inv_…`)' } as const;
const noInvitation = apiError('`not_found`: no such org, or no such invitation in it (withdrawn ones too)');

/**
 * An org's invitations (DESIGN §16; owners only, members 403): invite an address to be a user of
 * the org, list them (console member invitations too, `kind` `member`), read one, withdraw one.
 * People only: an invitation lets someone in, and the list holds the console's own invitees
 * (a service account: 403 forbidden).
 */
const OWNERS = { ...MANAGEMENT, who: 'owners', people: true } as const;

export const INVITATION_ENDPOINTS = [
  endpoint(
    {
      method: 'post',
      path: '/organizations/:org/invitations',
      operationId: 'createInvitation',
      summary: 'Invite an address to be a user of the org',
      description:
        'The invitee follows a one-time link (7 days) to the org’s hosted pages: with an account ' +
        'there they sign in to accept, otherwise they choose a name and a password and are a user ' +
        'of the org, whatever its sign-up setting. `send_mail` true mails the link; false returns it ' +
        'once as `url`. Only the link token’s SHA-256 is stored. Audited as `invitation.created`; ' +
        'accepting as `invitation.updated` (state `accepted`).',
      ...OWNERS,
      scope: 'org:write',
      params: ORG,
      body: jsonRequest(CreateInvitationBody),
      responses: {
        201: {
          description: 'invited; `url` only when `send_mail` was false',
          schema: CreatedInvitationSchema,
        },
        400: apiError('`invalid_request`: an unknown field, or a value failing validation (named)'),
        ...ownersRefusals(noOrg),
        409: apiError('`conflict`: the address has a pending invitation already (withdraw it first)'),
      },
    },
    async ({ deps, caller, body }) => {
      const invitation = await managementInput(
        createInvitation(
          deps,
          caller.org,
          { kind: 'user', email: body.email, role: null, roles: body.roles ?? [], sendMail: body.send_mail },
          caller.actor,
        ),
      );
      return created(createdView(invitation));
    },
  ),
  endpoint(
    {
      method: 'get',
      path: '/organizations/:org/invitations',
      operationId: 'listInvitations',
      summary: 'The org’s invitations, newest first (member invitations too)',
      description:
        'Withdrawn invitations are left out. Any parameter not listed, or given twice, is `invalid_query`.',
      ...OWNERS,
      scope: 'org:read',
      params: ORG,
      query: InvitationsQuery,
      responses: {
        200: {
          description: 'one page, newest first',
          schema: InvitationList,
          headers: {
            link: 'RFC 8288 relations first, prev, next, last, keeping `kind` and `state`; absent when every entry fits on one page',
          },
        },
        400: badQuery,
        ...ownersRefusals(noOrg),
      },
    },
    async ({ deps, caller, query, page }) => {
      const list = await listInvitations(deps, caller.org, {
        kind: query.kind ?? null,
        state: query.state ?? null,
        page: query.page,
        perPage: query.per_page,
      });
      return page(list.entries.map(invitationView), list.total, FILTERS);
    },
  ),
  endpoint(
    {
      method: 'get',
      path: '/organizations/:org/invitations/:id',
      operationId: 'getInvitation',
      summary: 'One of the org’s invitations (never its link)',
      ...OWNERS,
      scope: 'org:read',
      params: INVITATION,
      responses: {
        200: { description: 'the invitation', schema: InvitationSchema },
        ...ownersRefusals(noInvitation),
      },
    },
    async ({ deps, caller, params }) => {
      const invitation = await requireInvitation(deps, caller.org, params.id);
      return ok(invitationView(invitation));
    },
  ),
  endpoint(
    {
      method: 'delete',
      path: '/organizations/:org/invitations/:id',
      operationId: 'deleteInvitation',
      summary: 'Withdraw an invitation',
      description:
        'A pending invitation’s link stops working: its page says the invitation was withdrawn. An ' +
        'accepted or expired one leaves the list (an accepted one’s user or membership stays). ' +
        'Audited as `invitation.deleted`.',
      ...OWNERS,
      scope: 'org:write',
      params: INVITATION,
      responses: {
        204: { description: 'withdrawn; no body' },
        ...ownersRefusals(noInvitation),
      },
    },
    async ({ deps, caller, params }) => {
      await revokeInvitation(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
];
