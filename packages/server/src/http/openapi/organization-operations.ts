import { ApiError } from '../management/api-schemas.js';
import {
  AddMemberBody,
  Member,
  MemberList,
  MembersQuery,
  UpdateMemberBody,
} from '../management/members-schemas.js';
import {
  CreatedOrganization,
  CreateOrganizationBody,
  OrganizationOfCallerList,
  OrganizationsQuery,
} from '../management/organizations-schemas.js';
import { OrganizationSettings, UpdateOrganizationSettingsBody } from '../management/settings-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const ORG = { org: 'the org id (`org_…`) or slug' };
const MEMBER = { ...ORG, id: 'the member’s console user id (`usr_…`)' };
const error = (description: string): ResponseSpec => ({ description, schema: ApiError });
const unauthorized = error('no valid console token (`WWW-Authenticate: Bearer`)');
const notOwner = error('`forbidden`: the caller is a member but not an owner of the org');
const noOrg = error('`not_found`: no such org, or the caller is not a member of it');
const paged = (description: string, schema: ResponseSpec['schema']): ResponseSpec => ({
  description,
  schema,
  headers: { link: 'RFC 8288 relations first, prev, next, last (absent when every entry fits on one page)' },
});
const badQuery = error('`invalid_query`: unknown or repeated parameter, or value out of range');
const badBody = error('`invalid_request`: an unknown field, or a value failing validation (named)');

/** The caller's organizations, an org's settings and its members (console users). */
export const ORGANIZATION_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/organizations',
    operationId: 'listOrganizations',
    summary: 'The orgs the caller is a member of, with their role, by slug',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    query: OrganizationsQuery,
    responses: {
      200: paged('one page of orgs', OrganizationOfCallerList),
      400: badQuery,
      401: unauthorized,
    },
  },
  {
    method: 'post',
    path: '/organizations',
    operationId: 'createOrganization',
    summary: 'Create an org; the caller becomes its owner',
    description:
      'The org gets its own issuer (its slug’s host) and signing keys. Audited in the new org as ' +
      '`organization.created` and `membership.created`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    body: { contentType: 'application/json', schema: CreateOrganizationBody },
    responses: {
      201: { description: 'created', schema: CreatedOrganization },
      400: error(
        '`invalid_request`: an unknown field, a slug or name failing validation, or a reserved slug',
      ),
      401: unauthorized,
      409: error('`conflict`: an org with this slug exists'),
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/settings',
    operationId: 'getOrganizationSettings',
    summary: 'The org’s settings (members too)',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: ORG,
    responses: {
      200: { description: 'the settings', schema: OrganizationSettings },
      401: unauthorized,
      404: noOrg,
    },
  },
  {
    method: 'patch',
    path: '/organizations/:org/settings',
    operationId: 'updateOrganizationSettings',
    summary: 'Rename the org, or require (or stop requiring) a second factor of its users',
    description:
      'Fields left out keep their value. A change is audited as one `organization.updated` entry ' +
      '(with `previous` and `changes`); a request that changes nothing writes none.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: ORG,
    body: { contentType: 'application/json', schema: UpdateOrganizationSettingsBody },
    responses: {
      200: { description: 'the settings as they are now', schema: OrganizationSettings },
      400: badBody,
      401: unauthorized,
      403: notOwner,
      404: noOrg,
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/members',
    operationId: 'listMembers',
    summary: 'The org’s members by email (members too)',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: ORG,
    query: MembersQuery,
    responses: {
      200: paged('one page of members', MemberList),
      400: badQuery,
      401: unauthorized,
      404: noOrg,
    },
  },
  {
    method: 'post',
    path: '/organizations/:org/members',
    operationId: 'addMember',
    summary: 'Make an existing console user a member of the org',
    description:
      'The console user must exist already: an email no console user has is `400 invalid_request` ' +
      'with `error_detail` `email: no console user has this address` (`tessera member add` creates ' +
      'console users). Audited as `membership.created`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: ORG,
    body: { contentType: 'application/json', schema: AddMemberBody },
    responses: {
      201: { description: 'added', schema: Member },
      400: error('`invalid_request`: an unknown field, a value failing validation, or no such console user'),
      401: unauthorized,
      403: notOwner,
      404: noOrg,
      409: error('`conflict`: the console user is a member already (PATCH changes a role)'),
    },
  },
  {
    method: 'patch',
    path: '/organizations/:org/members/:id',
    operationId: 'updateMember',
    summary: 'Change a member’s role',
    description: 'Audited as `membership.updated` (with `previous` and `changes`) when the role changes.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: MEMBER,
    body: { contentType: 'application/json', schema: UpdateMemberBody },
    responses: {
      200: { description: 'the member as they are now', schema: Member },
      400: badBody,
      401: unauthorized,
      403: notOwner,
      404: error('`not_found`: no such org, or no such member of it'),
      409: error('`conflict`: the member is the org’s last owner'),
    },
  },
  {
    method: 'delete',
    path: '/organizations/:org/members/:id',
    operationId: 'removeMember',
    summary: 'End a membership (the console user stays)',
    description: 'Audited as `membership.deleted`.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: MEMBER,
    responses: {
      204: { description: 'removed; no body' },
      401: unauthorized,
      403: notOwner,
      404: error('`not_found`: no such org, or no such member of it'),
      409: error('`conflict`: the member is the org’s last owner'),
    },
  },
];
