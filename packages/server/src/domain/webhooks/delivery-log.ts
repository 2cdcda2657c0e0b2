import {
  attemptsOf,
  findDelivery,
  listDeliveriesOfWebhook,
  requeueDelivery,
} from '../../storage/repos/webhook-deliveries.js';
import { findOrgWebhook } from '../../storage/repos/webhooks.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { isIdOf } from '../identifiers.js';
import { isoTime, isoTimeOrNull } from '../iso-time.js';
import type { DeliveryAttempt, Org, WebhookDelivery } from '../types.js';
import type { WebhooksDeps } from './deps.js';
import { announceDeliveries } from './outbox-signal.js';

/** The log keeps every delivery; the list shows the newest this many. */
export const DELIVERY_LOG_LIMIT = 100;

/** A delivery and its attempts as the management API shows them (snake_case, like the webhook object). */
export function deliveryView(d: WebhookDelivery, attempts: DeliveryAttempt[]) {
  return {
    id: d.id,
    event_id: d.eventId,
    type: d.eventKey,
    status: d.status,
    created_at: isoTime(d.createdAt),
    next_attempt_at: d.status === 'pending' ? isoTimeOrNull(d.nextAttemptAt) : null,
    attempts: attempts.map((a) => ({
      at: isoTime(a.attemptedAt),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
    })),
  };
}

async function orgWebhook(deps: WebhooksDeps, org: Org, webhookId: string) {
  if (!isIdOf('webhook', webhookId)) return fail('webhook.not_found', 'no such webhook');
  return (
    (await findOrgWebhook(deps.store, org.id, webhookId)) ?? fail('webhook.not_found', 'no such webhook')
  );
}

/** A webhook's newest deliveries, newest event first, each with its attempts oldest first. */
export async function listDeliveries(deps: WebhooksDeps, org: Org, webhookId: string) {
  await orgWebhook(deps, org, webhookId);
  const deliveries = await listDeliveriesOfWebhook(deps.store, webhookId, DELIVERY_LOG_LIMIT);
  const attempts = await attemptsOf(
    deps.store,
    deliveries.map((d) => d.id),
  );
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.deliveryId);
    if (list) list.push(a);
    else byDelivery.set(a.deliveryId, [a]);
  }
  return deliveries.map((d) => deliveryView(d, byDelivery.get(d.id) ?? []));
}

/**
 * Sends one event again: the delivery is due now with a fresh retry series, the same `webhook-id`
 * and body. 409 while the webhook is inactive or a worker is attempting it at this moment.
 *
 * The answer shows the delivery as requeued, with the attempts made before: both are read in the
 * requeue's transaction, so a worker (polling, or woken by the announcement) cannot claim it and add
 * its attempt in between. Read after the requeue's commit, the answer once showed the new attempt
 * already, under a status of `pending`.
 */
export async function retryDelivery(deps: WebhooksDeps, org: Org, webhookId: string, deliveryId: string) {
  const webhook = await orgWebhook(deps, org, webhookId);
  const delivery =
    (await findDelivery(deps.store, webhookId, deliveryId)) ??
    fail('webhook.delivery.not_found', 'no such delivery');
  if (!webhook.active) fail('webhook.inactive', 'the webhook is inactive');
  const now = clock.now();
  const attempts = await deps.unitOfWork.run(async (tx) => {
    if (!(await requeueDelivery(tx, delivery.id, now))) {
      fail('webhook.delivery.in_flight', 'the delivery is being attempted right now');
    }
    return attemptsOf(tx, [delivery.id]);
  });
  await announceDeliveries(deps.store);
  const requeued: WebhookDelivery = {
    ...delivery,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    claimToken: null,
  };
  return deliveryView(requeued, attempts);
}
