import type { Sealer } from '../crypto/sealing.js';
import { signedHeaders, signingKey } from '../crypto/webhook-signature.js';
import type { ClaimedDelivery, DeliveryStatus, DeliveryTarget } from '../domain/types.js';
import { nextRetryDelay } from '../domain/webhooks/index.js';
import type { HttpsSender, SendResult } from './https-sender.js';
import type { Settler } from './settler.js';
import type { WorkerClock } from './worker-clock.js';
import type { WorkerLog } from './worker-log.js';

export interface AttemptContext {
  readonly sealer: Sealer;
  readonly sender: HttpsSender;
  readonly settler: Settler;
  /** Retry delays in ms (config.webhookRetrySchedule). */
  readonly schedule: readonly number[];
  readonly random: () => number;
  readonly log: WorkerLog;
  /** The worker's clock: attempt and retry times, the signature's timestamp. */
  readonly clock: WorkerClock;
  /** Signing keys by sealed secret: opened once, not once per delivery (a new secret is a new key). */
  readonly keys: Map<string, Buffer>;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  /** When a pending delivery is due again. */
  nextAttemptAt: number | null;
}

/**
 * One attempt at one claimed delivery: sign (fresh `webhook-timestamp`, the same `webhook-id` and
 * body every time), send, and settle the outcome with its log entry in one write. 2xx is
 * delivered; 410, or a failure with the schedule spent, fails it for good and disables the webhook;
 * anything else is retried later. Settling goes through the worker's group commit (settler.ts).
 */
export async function attemptDelivery(
  ctx: AttemptContext,
  delivery: ClaimedDelivery,
  token: string,
  target: DeliveryTarget | undefined,
  /** Called once the request is over (answered, refused or timed out), before settling. */
  onSent: () => void,
): Promise<AttemptOutcome> {
  if (target?.active !== true) {
    // Deleted or disabled since the event: nothing to send (a retry can re-queue it once active).
    onSent();
    const { id, attempts } = delivery;
    await ctx.settler.settle({
      settlement: { id, token, status: 'skipped', attempts, nextAttemptAt: null, now: ctx.clock.now() },
      attempt: null,
      target,
    });
    return { status: 'skipped', nextAttemptAt: null };
  }
  const result = await send(ctx, delivery, target);
  onSent();
  const now = ctx.clock.now();
  const attempts = delivery.attempts + 1;
  let outcome: AttemptOutcome;
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    outcome = { status: 'delivered', nextAttemptAt: null };
  } else {
    const delay =
      result.status === 410 ? null : nextRetryDelay(ctx.schedule, attempts, result.retryAfterMs, ctx.random);
    outcome =
      delay === null
        ? { status: 'failed', nextAttemptAt: null }
        : { status: 'pending', nextAttemptAt: now + delay };
  }
  const { disabled } = await ctx.settler.settle({
    settlement: { id: delivery.id, token, ...outcome, attempts, now },
    attempt: {
      attemptedAt: now - result.durationMs,
      statusCode: result.status,
      durationMs: result.durationMs,
      error: result.error,
    },
    target,
  });
  const fields = {
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    attempt: attempts,
    statusCode: result.status,
    durationMs: result.durationMs,
  };
  if (outcome.status === 'delivered') ctx.log.debug(fields, 'webhook delivered');
  else ctx.log.warn({ ...fields, error: result.error, outcome: outcome.status }, 'webhook delivery failed');
  if (disabled) ctx.log.warn({ webhookId: target.id }, 'webhook disabled after failed delivery');
  return outcome;
}

async function send(
  ctx: AttemptContext,
  delivery: ClaimedDelivery,
  target: DeliveryTarget,
): Promise<SendResult> {
  let key = ctx.keys.get(target.sealedSecret);
  if (!key) {
    try {
      key = signingKey(ctx.sealer.open(target.sealedSecret));
    } catch {
      return { status: null, durationMs: 0, error: 'the signing secret cannot be read', retryAfterMs: null };
    }
    // Bounded: a worker serving very many webhooks opens some secrets again.
    if (ctx.keys.size >= 1_000) ctx.keys.clear();
    ctx.keys.set(target.sealedSecret, key);
  }
  const headers = signedHeaders(key, delivery.eventId, Math.floor(ctx.clock.now() / 1000), delivery.body);
  return ctx.sender.post(target.url, headers, delivery.body);
}
