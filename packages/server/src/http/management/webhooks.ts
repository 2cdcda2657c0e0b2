import type { z } from 'zod';
import {
  createWebhook as create,
  listWebhooks as list,
  deleteWebhook as remove,
  updateWebhook as update,
  type Webhook,
} from '../../domain/directory/index.js';
import { refuseLoopbackUrl } from '../../domain/webhooks/index.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  WebhookList,
  Webhook as WebhookSchema,
  type Webhook as WebhookView,
} from './api-schemas.js';
import { created, endpoint, noContent, ok } from './endpoint.js';
import { apiError, forbidden, invalid, MANAGEMENT, noOrg, ORG, unauthorized } from './responses.js';
import { UpdateWebhookBody, WebhooksQuery } from './webhooks-schemas.js';

const view = (w: Webhook): z.output<typeof WebhookView> => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  created_at: new Date(w.createdAt).toISOString(),
});

const WEBHOOK = { ...ORG, id: 'the webhook id (`whk_…`)' } as const;
const notOwner = apiError('`forbidden`: not an owner');
const noWebhook = apiError('`not_found`: no such org or webhook in it, or not a `whk_` id');
const read = { ...MANAGEMENT, scope: 'org:read', who: 'owners' } as const;
const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners' } as const;

// An org's webhooks (owners only; members 403): create (the secret is shown here once), list,
// update (also to turn a disabled one back on), delete.

export const createWebhook = endpoint(
  {
    ...write,
    method: 'post',
    path: '/organizations/:org/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    params: ORG,
    body: { contentType: 'application/json', schema: CreateWebhookBody, errors: 'invalid_request' },
    responses: {
      201: { description: 'created; `secret` is shown in this response only', schema: CreatedWebhook },
      400: apiError(
        '`invalid_request`: an unknown field, or a value failing validation (a loopback `url` while TESSERA_OUTBOUND_ALLOW_PRIVATE is off)',
      ),
      401: unauthorized,
      403: forbidden,
      404: noOrg,
    },
  },
  async ({ deps, caller, body }) => {
    refuseLoopbackUrl(deps, body.url);
    const { webhook, secret } = await create(deps, caller.org, body, caller.actor);
    return created({ ...view(webhook), secret });
  },
);

export const listWebhooks = endpoint(
  {
    ...read,
    method: 'get',
    path: '/organizations/:org/webhooks',
    operationId: 'listWebhooks',
    summary: 'List the org’s webhooks (never their secrets)',
    params: ORG,
    query: WebhooksQuery,
    responses: {
      200: {
        description: 'oldest first; more pages in the `Link` header',
        schema: WebhookList,
        headers: { link: 'RFC 8288 first/prev/next/last page URLs, when there is more than one page' },
      },
      400: apiError('`invalid_query`: an unknown or repeated parameter, or a value out of range'),
      401: unauthorized,
      403: notOwner,
      404: noOrg,
    },
  },
  async ({ deps, caller, query, page }) => {
    const found = await list(deps, caller.org, { page: query.page, perPage: query.per_page });
    return page(found.entries.map(view), found.total);
  },
);

export const deleteWebhook = endpoint(
  {
    ...write,
    method: 'delete',
    path: '/organizations/:org/webhooks/:id',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    params: WEBHOOK,
    responses: {
      204: { description: 'deleted; no body' },
      401: unauthorized,
      403: notOwner,
      404: noWebhook,
    },
  },
  async ({ deps, caller, params }) => {
    await remove(deps, caller.org, params.id, caller.actor);
    return noContent();
  },
);

export const updateWebhook = endpoint(
  {
    ...write,
    method: 'patch',
    path: '/organizations/:org/webhooks/:id',
    operationId: 'updateWebhook',
    summary: 'Change a webhook’s URL, events or active flag',
    description:
      'Absent fields keep their value. `active: true` turns a webhook back on after failing ' +
      'deliveries turned it off; events from then on are delivered to it.',
    params: WEBHOOK,
    body: { contentType: 'application/json', schema: UpdateWebhookBody, errors: 'invalid_request' },
    responses: {
      200: { description: 'the webhook as updated (never its secret)', schema: WebhookSchema },
      400: invalid,
      401: unauthorized,
      403: forbidden,
      404: noWebhook,
    },
  },
  async ({ deps, caller, params, body }) => {
    if (body.url !== undefined) refuseLoopbackUrl(deps, body.url);
    const changes = {
      ...(body.url === undefined ? {} : { url: body.url }),
      ...(body.events === undefined ? {} : { events: body.events }),
      ...(body.active === undefined ? {} : { active: body.active }),
    };
    const webhook = await update(deps, caller.org, params.id, changes, caller.actor);
    return ok(view(webhook));
  },
);
