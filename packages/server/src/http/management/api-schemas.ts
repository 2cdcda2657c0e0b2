import { z } from 'zod';
import { ENTITY_SHAPE, ROUTING_PATTERN, VERBS } from '../../domain/webhooks/index.js';
import { IsoDateTime } from './instant-fields.js';

/**
 * The management API's requests and responses, declared once: the routes validate with these
 * schemas and the OpenAPI document (http/openapi/) is generated from the same objects.
 */

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

/** Epoch ms of an ISO date (`2024-05-01`, UTC midnight) or date-time with a zone; null otherwise. */
export function parseInstant(value: string): number | null {
  const match = ISO_INSTANT.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const WebhookUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine(isHttpsUrl, 'must be an absolute https URL without credentials')
  .meta({ format: 'uri', description: 'https only' });

export const RoutingKeyPattern = z
  .string()
  .regex(
    ROUTING_PATTERN,
    `must be #, or <entity>.<verb> where either part may be * (verbs: ${VERBS.join(', ')})`,
  )
  .meta({ examples: ['tenant.*', '*.deleted', 'user.login', '#'] });

export const CreateWebhookBody = z.strictObject({
  url: WebhookUrl,
  events: z
    .array(RoutingKeyPattern)
    .min(1, 'must hold 1 to 50 patterns')
    .max(50, 'must hold 1 to 50 patterns')
    .meta({ description: 'routing-key patterns; duplicates are dropped' }),
});

export const Webhook = z.object({
  id: z.string().meta({ pattern: '^whk_' }),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  created_at: IsoDateTime.meta({ description: 'ISO date-time with milliseconds, UTC' }),
});

export const CreatedWebhook = Webhook.extend({
  secret: z.string().meta({ description: 'the signing secret (`whsec_…`); in this response only' }),
});

export const WebhookList = z.array(Webhook);

const instant = (name: string) =>
  z
    .string()
    .refine((v) => parseInstant(v) !== null, 'must be an ISO date (2024-05-01) or date-time with a zone')
    .transform((v) => parseInstant(v) as number)
    .optional()
    .meta({ format: 'date-time', description: `${name}: an ISO date, or date-time with Z or an offset` });

/**
 * `page` and `per_page` of every paged list (the events list's paging): text in the query, read as
 * numbers, so documented as the integers they stand for.
 */
export const PAGE_FIELDS = {
  per_page: z
    .enum(['1', '50', '100'], 'must be 1, 50 or 100')
    .default('50')
    .transform(Number)
    .meta({ description: 'entries per page', type: 'integer', enum: [1, 50, 100] }),
  page: z
    .string()
    .regex(/^(0|[1-9]\d{0,6})$/, 'must be a whole number from 0 to 9999999')
    .default('0')
    .transform(Number)
    .meta({
      description: 'zero-based page number; a page past the end is empty',
      type: 'integer',
      minimum: 0,
      maximum: 9_999_999,
    }),
};

/** The event list's query: every parameter once at most (checked before this schema). */
export const EventsQuery = z.strictObject({
  ...PAGE_FIELDS,
  entity: z
    .string()
    .regex(ENTITY_SHAPE, 'must be an entity type such as tenant')
    .optional()
    .meta({ description: 'only entries of this entity type' }),
  verb: z
    .enum(VERBS as [string, ...string[]], `must be one of ${VERBS.join(', ')}`)
    .optional()
    .meta({ description: 'only entries with this verb' }),
  actor_id: z
    .string()
    .regex(/^(usr|cli)_[A-Za-z0-9]{1,64}$/, 'must be a user (usr_…) or client (cli_…) id')
    .optional()
    .meta({ description: 'only entries caused by this user or client' }),
  key_prefix: z
    .string()
    .regex(/^[a-z0-9_.-]{1,130}$/, 'must be 1-130 characters of a-z, 0-9, _, - and .')
    .optional()
    .meta({ description: 'only entries whose key starts with this' }),
  from: instant('start of the time range (inclusive)'),
  to: instant('end of the time range (exclusive)'),
});

export const AuditEntry = z.object({
  id: z.string(),
  key: z.string().meta({ description: '<entity>.<verb>' }),
  entity: z.string(),
  verb: z.enum(VERBS as [string, ...string[]]),
  at: IsoDateTime,
  actor: z.union([
    z.object({ kind: z.enum(['user', 'client']), id: z.string() }),
    z.object({ kind: z.literal('system') }),
  ]),
  data: z.record(z.string(), z.unknown()).meta({ description: 'the resource as stored (camelCase)' }),
  previous: z.record(z.string(), z.unknown()).optional().meta({ description: 'updates only' }),
  changes: z.record(z.string(), z.unknown()).optional().meta({ description: 'updates only' }),
});

export const AuditEntryList = z.array(AuditEntry);

/** Every management and user-API error body (spec "Errors"). */
export const ApiError = z.object({
  error: z.string(),
  error_detail: z.string().optional().meta({ description: 'names the offending field or parameter' }),
});
