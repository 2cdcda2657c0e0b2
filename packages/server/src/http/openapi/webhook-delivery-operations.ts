import { ApiError } from '../management/api-schemas.js';
import { Delivery, DeliveryList } from '../management/webhook-delivery-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const PARAMS = { org: 'the org id (`org_…`) or slug', id: 'the webhook id (`whk_…`)' };
const error = (description: string): ResponseSpec => ({ description, schema: ApiError });
const unauthorized = error('no valid console token (`WWW-Authenticate: Bearer`)');

/** The webhook delivery log (docs/webhooks.md). */
export const WEBHOOK_DELIVERY_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/organizations/:org/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'A webhook’s newest 100 deliveries with their attempts',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: PARAMS,
    responses: {
      200: { description: 'newest event first', schema: DeliveryList },
      401: unauthorized,
      403: error('`forbidden`: not an owner'),
      404: error('`not_found`: no such org or webhook in it, or the token cannot manage it'),
    },
  },
  {
    method: 'post',
    path: '/organizations/:org/webhooks/:id/deliveries/:deliveryId/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Send one event again now (same `webhook-id` and body, a fresh retry series)',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: { ...PARAMS, deliveryId: 'the delivery id (`wdl_…`)' },
    responses: {
      202: { description: 'queued', schema: Delivery },
      401: unauthorized,
      403: error('`forbidden`: not an owner'),
      404: error('`not_found`: no such org, webhook or delivery'),
      409: error('`conflict`: the webhook is inactive, or the delivery is being attempted right now'),
    },
  },
];
