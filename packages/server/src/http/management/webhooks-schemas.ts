import { z } from 'zod';
import { CreateWebhookBody, PAGE_FIELDS } from './api-schemas.js';

/** PATCH /organizations/{org}/webhooks/{id}: each field checked as on create, each optional. */
export const UpdateWebhookBody = z.strictObject({
  url: CreateWebhookBody.shape.url.optional(),
  events: CreateWebhookBody.shape.events.optional(),
  active: z
    .boolean()
    .optional()
    .meta({ description: 'true turns a webhook back on, also one that failing deliveries turned off' }),
});

/** The webhook list's query: the paging of every list. */
export const WebhooksQuery = z.strictObject({ ...PAGE_FIELDS });
