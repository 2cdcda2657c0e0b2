import type { z } from 'zod';
import { isoTime, isoTimeOrNull } from '../../domain/iso-time.js';
import {
  createLogStream,
  deleteLogStream,
  getLogStream,
  type LogStreamView,
  listLogStreams,
  updateLogStream,
} from '../../domain/log-streams/index.js';
import { logStreamChanges, newLogStream } from './log-stream-input.js';
import {
  CreatedLogStream,
  CreateLogStreamBody,
  LogStreamList,
  LogStreamRecord,
  LogStreamsQuery,
  UpdateLogStreamBody,
} from './log-streams-schemas.js';
import { ownedItems } from './owned-items.js';
import { apiError, linkedPageResponses } from './responses.js';
import { timestamps } from './times.js';

function view(s: LogStreamView): z.output<typeof LogStreamRecord> {
  return {
    id: s.id,
    name: s.name,
    type: s.type,
    url: s.url,
    settings: s.settings,
    active: s.active,
    backfill_from: isoTime(s.backfillFrom),
    status: s.status,
    last_error: s.lastError,
    last_error_at: isoTimeOrNull(s.lastErrorAt),
    last_sent_at: isoTimeOrNull(s.lastSentAt),
    sent_entries: s.sentEntries,
    lag: { entries: s.lag.entries, oldest_unsent_at: isoTimeOrNull(s.lag.oldestUnsentAt) },
    ...timestamps(s),
  };
}

const streams = ownedItems({
  collection: 'log-streams',
  noun: 'log stream',
  prefix: 'lst',
  notFound: apiError('`not_found`: no such org or log stream in it, or the token cannot manage it'),
});
const badUrl = 'a value failing validation (a loopback `url` while TESSERA_OUTBOUND_ALLOW_PRIVATE is off)';

/**
 * An org's audit-log streams to a SIEM (DESIGN §19; owners only): generic HTTPS (signed the Standard
 * Webhooks way), Splunk HEC, Datadog. Create (the https type's secret is shown here once; a given
 * token or API key never again), list, read, update (pause, resume, a new token), delete. Each answer
 * carries the stream's status, last error and lag. Every change is audited.
 */
export const LOG_STREAM_ENDPOINTS = [
  streams.create(
    {
      operationId: 'createLogStream',
      summary: 'Stream the org’s audit log to a SIEM (HTTPS, Splunk HEC or Datadog)',
      description:
        'Every audit entry of the org from `backfill_from` on (default: now) is sent, in order, at least once, ' +
        'each with its entry id. `https`: batches POSTed with Standard Webhooks signatures (the secret is in this ' +
        'answer only). `splunk_hec`: `token` (sealed, never shown again). `datadog`: `api_key` (sealed, never shown again).',
      body: CreateLogStreamBody,
      schema: CreatedLogStream,
      answer: 'created; `secret` (https streams) is shown in this response only',
      refusals: {
        400: apiError(`\`invalid_request\`: an unknown field, a field of another type, or ${badUrl}`),
        404: streams.notFound,
        409: apiError('`conflict`: the org has as many log streams as allowed (10)'),
      },
    },
    async (deps, { org, actor }, b) => {
      const { stream, secret } = await createLogStream(deps, org, newLogStream(b), actor);
      return { ...view(stream), ...(secret === null ? {} : { secret }) };
    },
  ),
  streams.list(
    {
      operationId: 'listLogStreams',
      summary: 'List the org’s log streams with their status and lag (never their secrets)',
      query: LogStreamsQuery,
      responses: linkedPageResponses(LogStreamList, streams.notFound),
    },
    listLogStreams,
    view,
  ),
  streams.get(
    {
      operationId: 'getLogStream',
      summary: 'One log stream with its status, last error and lag (never its secret)',
      schema: LogStreamRecord,
    },
    async (deps, org, id) => view(await getLogStream(deps, org, id)),
  ),
  streams.update(
    {
      operationId: 'updateLogStream',
      summary: 'Change a log stream; absent fields keep their value, the cursor never moves',
      description:
        '`active: false` pauses the stream and `true` resumes it from the entry after the last one its ' +
        'destination accepted. A new `url`, `token` or `api_key`, or resuming, retries at once.',
      body: UpdateLogStreamBody,
      schema: LogStreamRecord,
      refusals: {
        400: apiError(`\`invalid_request\`: an unknown field, a setting of another type, or ${badUrl}`),
      },
    },
    async (deps, { org, actor }, id, b) =>
      view(await updateLogStream(deps, org, id, logStreamChanges(b), actor)),
  ),
  streams.remove(
    { operationId: 'deleteLogStream', summary: 'Delete a log stream; nothing more is sent to it' },
    deleteLogStream,
  ),
];
