import type { Db } from '../../storage/db.js';
import { skipPendingOfWebhook } from '../../storage/repos/webhook-deliveries.js';
import { type DeliveryTarget, deactivateWebhook } from '../../storage/repos/webhooks.js';
import { recordAudit } from '../audit/audit.js';
import { SYSTEM } from '../types.js';
import { type Webhook, webhookSnapshot } from './webhooks.js';

/**
 * A receiver answered 410 Gone, or a delivery failed its last retry: the webhook is set
 * `active: false`, its other pending deliveries are skipped, and `webhook.updated` is recorded with
 * the system as actor, all in the caller's transaction. False when it was inactive already.
 */
export async function disableWebhook(trx: Db, target: DeliveryTarget, now: number): Promise<boolean> {
  if (!(await deactivateWebhook(trx, target.id, now))) return false;
  await skipPendingOfWebhook(trx, target.id, now);
  const before: Webhook = {
    id: target.id,
    orgId: target.org_id,
    url: target.url,
    events: JSON.parse(target.events) as string[],
    active: true,
    createdAt: target.created_at,
    updatedAt: target.updated_at,
  };
  const after: Webhook = { ...before, active: false, updatedAt: now };
  await recordAudit(trx, {
    orgId: target.org_id,
    entity: 'webhook',
    verb: 'updated',
    actor: SYSTEM,
    at: now,
    data: webhookSnapshot(after),
    previous: webhookSnapshot(before),
  });
  return true;
}
