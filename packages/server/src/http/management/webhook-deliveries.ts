import { listDeliveries, retryDelivery, sendTestEvent } from '../../domain/webhooks/index.js';
import { accepted, endpoint, ok } from './endpoint.js';
import { apiError, OWNERS_READ, OWNERS_WRITE, unauthorized } from './responses.js';
import { Delivery, DeliveryList } from './webhook-delivery-schemas.js';

const PARAMS = { org: 'the org id (`org_…`) or slug', id: 'the webhook id (`whk_…`)' } as const;
const notOwner = apiError('`forbidden`: not an owner');

/** A webhook's delivery log, redelivery of one event and a test event (owners only; members 403). */
export const WEBHOOK_DELIVERY_ENDPOINTS = [
  endpoint(
    {
      ...OWNERS_READ,
      method: 'get',
      path: '/organizations/:org/webhooks/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'A webhook’s newest 100 deliveries with their attempts',
      params: PARAMS,
      responses: {
        200: { description: 'newest event first', schema: DeliveryList },
        401: unauthorized,
        403: notOwner,
        404: apiError('`not_found`: no such org or webhook in it, or the token cannot manage it'),
      },
    },
    async ({ deps, caller, params }) => {
      return ok(await listDeliveries(deps, caller.org, params.id));
    },
  ),
  // Queues one signed `webhook.test` event for this webhook only: 202 with its delivery, whose
  // outcome the delivery log then shows. It changes nothing, so no audit entry.
  endpoint(
    {
      ...OWNERS_WRITE,
      method: 'post',
      path: '/organizations/:org/webhooks/:id/test',
      operationId: 'sendWebhookTestEvent',
      summary:
        'Send one signed `webhook.test` event to this webhook only (whatever its patterns); no audit entry',
      params: PARAMS,
      responses: {
        202: {
          description: 'queued like any delivery: the delivery log shows how it went',
          schema: Delivery,
        },
        401: unauthorized,
        403: notOwner,
        404: apiError('`not_found`: no such org or webhook in it'),
        409: apiError('`conflict`: the webhook is inactive'),
      },
    },
    async ({ deps, caller, params }) => {
      const delivery = await sendTestEvent(deps, caller.org, params.id);
      return accepted(delivery);
    },
  ),
  endpoint(
    {
      ...OWNERS_WRITE,
      method: 'post',
      path: '/organizations/:org/webhooks/:id/deliveries/:deliveryId/retry',
      operationId: 'retryWebhookDelivery',
      summary: 'Send one event again now (same `webhook-id` and body, a fresh retry series)',
      params: { ...PARAMS, deliveryId: 'the delivery id (`wdl_…`)' },
      responses: {
        202: { description: 'queued', schema: Delivery },
        401: unauthorized,
        403: notOwner,
        404: apiError('`not_found`: no such org, webhook or delivery'),
        409: apiError('`conflict`: the webhook is inactive, or the delivery is being attempted right now'),
      },
    },
    async ({ deps, caller, params }) => {
      const delivery = await retryDelivery(deps, caller.org, params.id, params.deliveryId);
      return accepted(delivery);
    },
  ),
];
