import { z } from 'zod';
import { PAGE_FIELDS, parseInstant, WebhookUrl } from './api-schemas.js';
import { IsoDateTime } from './instant-fields.js';

/** Audit-log streams (DESIGN §19): what the management API takes and gives. */

const Name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const Secret = (what: string) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .meta({ description: `${what}; stored sealed, never shown again` });
const Label = (description: string) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .refine((v) => ![...v].some((c) => c < ' ' || c === '\u007f'), 'must not hold control characters')
    .meta({ description });
const BackfillFrom = z
  .string()
  .refine((v) => parseInstant(v) !== null, 'must be an ISO date (2024-05-01) or date-time with a zone')
  .transform((v) => parseInstant(v) as number)
  .meta({
    format: 'date-time',
    description:
      'stream the entries at or after this time, already written ones included (default: from the stream’s creation)',
  });

const SPLUNK = {
  index: Label('Splunk: the index (default: the HEC token’s default index)').optional(),
  source: Label('Splunk: `source` of every event (default `tessera`)').optional(),
  sourcetype: Label('Splunk: `sourcetype` of every event (default `tessera:audit`)').optional(),
};
const DATADOG = {
  service: Label('Datadog: `service` (default `tessera`)').optional(),
  ddsource: Label('Datadog: `ddsource` (default `tessera`)').optional(),
  ddtags: Label('Datadog: `ddtags`, comma-separated `key:value` tags').optional(),
  gzip: z.boolean().optional().meta({ description: 'Datadog: send bodies gzip-compressed (default false)' }),
};

export const CreateHttpsStreamBody = z.strictObject({
  type: z.literal('https'),
  name: Name,
  url: WebhookUrl.meta({ description: 'where batches are POSTed (https only)' }),
  backfill_from: BackfillFrom.optional(),
});

export const CreateSplunkStreamBody = z.strictObject({
  type: z.literal('splunk_hec'),
  name: Name,
  url: WebhookUrl.meta({
    description:
      'the HTTP Event Collector’s base URL (`https://splunk.example.com:8088`); events go to `/services/collector/event`',
  }),
  token: Secret('the HEC token (sent as `Authorization: Splunk <token>`)'),
  backfill_from: BackfillFrom.optional(),
  ...SPLUNK,
});

export const CreateDatadogStreamBody = z.strictObject({
  type: z.literal('datadog'),
  name: Name,
  url: WebhookUrl.optional().meta({
    description:
      'the logs intake of the Datadog site (default `https://http-intake.logs.datadoghq.com`); logs go to `/api/v2/logs`',
  }),
  api_key: Secret('the Datadog API key (sent as `DD-API-KEY`)'),
  backfill_from: BackfillFrom.optional(),
  ...DATADOG,
});

export const CreateLogStreamBody = z.discriminatedUnion('type', [
  CreateHttpsStreamBody,
  CreateSplunkStreamBody,
  CreateDatadogStreamBody,
]);

/** PATCH: any field, each optional; the type and the cursor never change; settings of another type are refused. */
export const UpdateLogStreamBody = z.strictObject({
  name: Name.optional(),
  url: WebhookUrl.optional(),
  active: z.boolean().optional().meta({
    description: 'false pauses the stream; true resumes it from the entry after the last one accepted',
  }),
  token: Secret('splunk_hec: a new HEC token').optional(),
  api_key: Secret('datadog: a new API key').optional(),
  ...SPLUNK,
  ...DATADOG,
});

export const LogStreamRecord = z.object({
  id: z.string().meta({ pattern: '^lst_' }),
  name: z.string(),
  type: z.enum(['https', 'splunk_hec', 'datadog']),
  url: z.string(),
  settings: z
    .object({
      index: z.string().optional(),
      source: z.string().optional(),
      sourcetype: z.string().optional(),
      service: z.string().optional(),
      ddsource: z.string().optional(),
      ddtags: z.string().optional(),
      gzip: z.boolean().optional(),
    })
    .meta({ description: 'the settings of the stream’s type that were given (never a secret)' }),
  active: z.boolean(),
  backfill_from: IsoDateTime,
  status: z.enum(['active', 'failing', 'paused']).meta({
    description:
      '`active`: sending (or nothing to send); `failing`: the last attempt failed and is retried with backoff; `paused`: turned off',
  }),
  last_error: z.string().nullable().meta({ description: 'why the last failed attempt failed' }),
  last_error_at: IsoDateTime.nullable(),
  last_sent_at: IsoDateTime.nullable().meta({ description: 'when the destination last accepted a batch' }),
  sent_entries: z.number().int().meta({ description: 'entries the destination has accepted' }),
  lag: z.object({
    entries: z
      .number()
      .int()
      .meta({ description: 'committed entries not yet accepted, counted up to 10000' }),
    oldest_unsent_at: IsoDateTime.nullable().meta({ description: 'the time of the next entry to send' }),
  }),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});

export const CreatedLogStream = LogStreamRecord.extend({
  secret: z.string().optional().meta({
    description: 'https streams: the signing secret (`whsec_…`, Standard Webhooks); in this response only',
  }),
});

export const LogStreamList = z.array(LogStreamRecord);

export const LogStreamsQuery = z.strictObject({ ...PAGE_FIELDS });
