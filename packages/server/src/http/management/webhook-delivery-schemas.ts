import { z } from 'zod';
import { IsoDateTime } from './instant-fields.js';

/** The delivery log's response shapes (webhooks/delivery-log.ts), for the OpenAPI document. */

export const DeliveryAttempt = z.object({
  at: IsoDateTime.meta({ description: 'when the attempt started' }),
  status_code: z.number().int().nullable().meta({ description: 'the response status; null when none came' }),
  duration_ms: z.number().int(),
  error: z.string().nullable().meta({ description: 'why it failed; null on success' }),
});

export const Delivery = z.object({
  id: z.string().meta({ pattern: '^wdl_' }),
  event_id: z.string().meta({ description: 'the audit event id, sent as `webhook-id` on every attempt' }),
  type: z.string().meta({ description: 'the routing key' }),
  status: z.enum(['pending', 'delivered', 'failed', 'skipped']),
  created_at: IsoDateTime,
  next_attempt_at: IsoDateTime.nullable().meta({
    description: 'pending deliveries: when the next attempt is due',
  }),
  attempts: z.array(DeliveryAttempt).meta({ description: 'oldest first' }),
});

export const DeliveryList = z.array(Delivery);
