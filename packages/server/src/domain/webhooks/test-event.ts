import { newEventId, newSortableId } from '../../crypto/random.js';
import { insertDeliveries } from '../../storage/repos/webhook-deliveries.js';
import { findWebhook } from '../../storage/repos/webhooks.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { isIdOf } from '../identifiers.js';
import type { Org, WebhookDelivery } from '../types.js';
import { deliveryView } from './delivery-log.js';
import type { WebhooksDeps } from './deps.js';
import { announceDeliveries } from './outbox-signal.js';

export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * Queues one `webhook.test` event for one webhook (whatever its patterns), for checking a receiver:
 * a delivery like any other, so the worker signs it with the webhook's secret, sends it through the
 * address policy, retries it on the same schedule and logs its attempts in the delivery log. It
 * changes nothing, so it writes no audit entry and no other webhook receives it. 404 for another
 * org's webhook, 409 while the webhook is inactive (nothing would be sent).
 */
export async function sendTestEvent(deps: WebhooksDeps, org: Org, webhookId: string) {
  if (!isIdOf('webhook', webhookId)) fail('webhook.not_found', 'no such webhook');
  const webhook =
    (await findWebhook(deps.store, org.id, webhookId)) ?? fail('webhook.not_found', 'no such webhook');
  if (!webhook.active) fail('webhook.inactive', 'the webhook is inactive');
  const now = clock.now();
  const eventId = newEventId(now);
  const body = JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: new Date(now).toISOString(),
    data: {
      id: eventId,
      key: TEST_EVENT_TYPE,
      test: true,
      message: 'A test event, sent on request to this webhook only. Nothing changed.',
      organization: { id: org.id, slug: org.slug },
      webhook: { id: webhook.id, url: webhook.url },
    },
  });
  const delivery: WebhookDelivery = {
    id: newSortableId('wdl', now),
    orgId: org.id,
    webhookId: webhook.id,
    eventId,
    eventKey: TEST_EVENT_TYPE,
    body,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    claimToken: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertDeliveries(deps.store, [delivery]);
  await announceDeliveries(deps.store);
  return deliveryView(delivery, []);
}
