import type { Handle } from '../../storage/handle.js';
import { skipPendingOfWebhook } from '../../storage/repos/webhook-deliveries.js';
import { deactivateWebhook } from '../../storage/repos/webhooks.js';
import { SYSTEM, type Webhook } from '../types.js';
import { webhookAudit } from './webhooks.js';

/**
 * A receiver answered 410 Gone, or a delivery failed its last retry: the webhook is set
 * `active: false`, its other pending deliveries are skipped, and `webhook.updated` is recorded with
 * the system as actor, all in the caller's transaction. False when it was inactive already.
 */
export async function disableWebhook(tx: Handle, webhook: Webhook, now: number): Promise<boolean> {
  if (!(await deactivateWebhook(tx, webhook.id, now))) return false;
  await skipPendingOfWebhook(tx, webhook.id, now);
  const before: Webhook = {
    id: webhook.id,
    orgId: webhook.orgId,
    url: webhook.url,
    events: webhook.events,
    active: true,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
  const after: Webhook = { ...before, active: false, updatedAt: now };
  await webhookAudit.updated(tx, { orgId: webhook.orgId, actor: SYSTEM, at: now }, before, after);
  return true;
}
