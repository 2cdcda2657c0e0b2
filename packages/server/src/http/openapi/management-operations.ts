import {
  ApiError,
  AuditEntryList,
  CreatedWebhook,
  CreateWebhookBody,
  EventsQuery,
  WebhookList,
} from '../management/api-schemas.js';
import { WebhooksQuery } from '../management/webhooks-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const ORG = { org: 'the org id (`org_…`) or slug' };
const error = (description: string): ResponseSpec => ({ description, schema: ApiError });
const unauthorized = error('no valid console token (`WWW-Authenticate: Bearer`)');

/** The management API (spec "Endpoints"), from the schemas its routes validate with. */
export const MANAGEMENT_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/organizations/:org/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: ORG,
    body: { contentType: 'application/json', schema: CreateWebhookBody },
    responses: {
      201: { description: 'created; `secret` is shown in this response only', schema: CreatedWebhook },
      400: error('`invalid_request`: an unknown field, or a value failing validation'),
      401: unauthorized,
      403: error('`forbidden`: the caller is a member but not an owner of the org'),
      404: error('`not_found`: no such org, or the token cannot manage it'),
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/webhooks',
    operationId: 'listWebhooks',
    summary: 'List the org’s webhooks (never their secrets)',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: ORG,
    query: WebhooksQuery,
    responses: {
      200: {
        description: 'oldest first; more pages in the `Link` header',
        schema: WebhookList,
        headers: { link: 'RFC 8288 first/prev/next/last page URLs, when there is more than one page' },
      },
      400: error('`invalid_query`: an unknown or repeated parameter, or a value out of range'),
      401: unauthorized,
      403: error('`forbidden`: not an owner'),
      404: error('`not_found`: no such org, or the token cannot manage it'),
    },
  },
  {
    method: 'delete',
    path: '/organizations/:org/webhooks/:id',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: { ...ORG, id: 'the webhook id (`whk_…`)' },
    responses: {
      204: { description: 'deleted; no body' },
      401: unauthorized,
      403: error('`forbidden`: not an owner'),
      404: error('`not_found`: no such org or webhook in it, or not a `whk_` id'),
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/events',
    operationId: 'listEvents',
    summary: 'The org’s audit log, newest first, filtered and paged',
    description:
      'Any parameter not listed, or given twice, is `invalid_query`. Paging is in the `Link` header ' +
      '(`first`, `prev`, `next`, `last`; absent when every entry fits on one page).',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'events:read',
    params: ORG,
    query: EventsQuery,
    responses: {
      200: {
        description: 'one page of entries',
        schema: AuditEntryList,
        headers: { link: 'RFC 8288 relations first, prev, next, last, each keeping the filters' },
      },
      400: error('`invalid_query`: unknown or repeated parameter, or value out of range'),
      401: unauthorized,
      404: error('`not_found`: not an owner (members too), or no such org'),
    },
  },
];
