import type { z } from 'zod';
import {
  createWebhook as create,
  listWebhooks as list,
  deleteWebhook as remove,
  updateWebhook as update,
  type Webhook,
} from '../../domain/directory/index.js';
import { isoTime } from '../../domain/iso-time.js';
import { refuseLoopbackUrl } from '../../domain/webhooks/index.js';
import { sentFields } from './api-input.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  WebhookList,
  Webhook as WebhookSchema,
  type Webhook as WebhookView,
} from './api-schemas.js';
import { ownedItems } from './owned-items.js';
import { apiError, linkedPageResponses, noOrg } from './responses.js';
import { UpdateWebhookBody, WebhooksQuery } from './webhooks-schemas.js';

const view = (w: Webhook): z.output<typeof WebhookView> => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  created_at: isoTime(w.createdAt),
});

const webhooks = ownedItems({
  collection: 'webhooks',
  noun: 'webhook',
  prefix: 'whk',
  notFound: apiError('`not_found`: no such org or webhook in it, or not a `whk_` id'),
});
const notOwner = apiError('`forbidden`: not an owner');

// An org's webhooks (owners only; members 403): create (the secret is shown here once), list,
// update (also to turn a disabled one back on), delete.

export const createWebhook = webhooks.create(
  {
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    body: CreateWebhookBody,
    schema: CreatedWebhook,
    answer: 'created; `secret` is shown in this response only',
    refusals: {
      400: apiError(
        '`invalid_request`: an unknown field, or a value failing validation (a loopback `url` while TESSERA_OUTBOUND_ALLOW_PRIVATE is off)',
      ),
    },
  },
  async (deps, caller, body) => {
    refuseLoopbackUrl(deps, body.url);
    const { webhook, secret } = await create(deps, caller.org, body, caller.actor);
    return { ...view(webhook), secret };
  },
);

export const listWebhooks = webhooks.list(
  {
    operationId: 'listWebhooks',
    summary: 'List the org’s webhooks (never their secrets)',
    query: WebhooksQuery,
    responses: { ...linkedPageResponses(WebhookList, noOrg), 403: notOwner },
  },
  list,
  view,
);

export const deleteWebhook = webhooks.remove(
  { operationId: 'deleteWebhook', summary: 'Delete a webhook', refusals: { 403: notOwner } },
  remove,
);

export const updateWebhook = webhooks.update(
  {
    operationId: 'updateWebhook',
    summary: 'Change a webhook’s URL, events or active flag',
    description:
      'Absent fields keep their value. `active: true` turns a webhook back on after failing ' +
      'deliveries turned it off; events from then on are delivered to it.',
    body: UpdateWebhookBody,
    schema: WebhookSchema,
    answer: 'the webhook as updated (never its secret)',
  },
  async (deps, caller, id, body) => {
    if (body.url !== undefined) refuseLoopbackUrl(deps, body.url);
    const changes = sentFields(body, { url: 'url', events: 'events', active: 'active' });
    return view(await update(deps, caller.org, id, changes, caller.actor));
  },
);
