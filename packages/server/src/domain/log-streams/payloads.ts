import { signedHeaders, signingKey } from '../../crypto/webhook-signature.js';
import { epochSecondsText, isoTime } from '../iso-time.js';
import type { LogStream, LogStreamType } from '../types.js';
import type { SerializedEntry } from './stream-entry.js';

/**
 * What each destination is sent for one batch of entries, from its own public API: one request, the
 * entries in the stream's order, each carrying its audit entry id (the same on every resend, so a
 * destination or a search can drop a repeat).
 *
 * | type         | request                                                                                   |
 * |--------------|-------------------------------------------------------------------------------------------|
 * | `https`      | POST `url`, `{"type":"audit.batch","timestamp","data":[entry…]}`, Standard Webhooks headers |
 * | `splunk_hec` | POST `{url}/services/collector/event`, `Authorization: Splunk <token>`, one JSON event per entry: `{time, source, sourcetype, index?, event}` |
 * | `datadog`    | POST `{url}/api/v2/logs`, `DD-API-KEY: <key>`, a JSON array of `{ddsource, ddtags?, service, message, date, evt, audit}`; gzip when asked |
 */
export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Send the body gzip-compressed (`Content-Encoding: gzip`). */
  gzip: boolean;
}

/** Most entries in one batch (Datadog takes at most 1000 per array). */
export const MAX_BATCH_ENTRIES = 500;
/** Most bytes of entries in one batch, before any compression (Datadog takes 5 MB; Splunk's default limit is 1 MB). */
export const MAX_BATCH_BYTES = 800_000;

export const SPLUNK_PATH = '/services/collector/event';
export const DATADOG_PATH = '/api/v2/logs';
export const DEFAULT_DATADOG_URL = 'https://http-intake.logs.datadoghq.com';

/** The URL a stream posts to: the https type's own; Splunk's and Datadog's path added to their base. */
export function endpointOf(type: LogStreamType, url: string): string {
  const path = type === 'splunk_hec' ? SPLUNK_PATH : type === 'datadog' ? DATADOG_PATH : null;
  if (path === null) return url;
  const base = new URL(url);
  let trimmed = base.pathname.replace(/\/+$/, '');
  if (trimmed.endsWith(path)) return `${base.origin}${trimmed}`;
  // A HEC URL copied with its collector path (`…/services/collector`) gets only the rest.
  if (type === 'splunk_hec' && trimmed.endsWith('/services/collector'))
    trimmed = trimmed.slice(0, -'/services/collector'.length);
  return `${base.origin}${trimmed}${path}`;
}

const str = (value: string) => JSON.stringify(value);

/**
 * The request for `entries` (one batch, in order) to `stream`, with its secret in clear (the https
 * type's signing secret, Splunk's HEC token, Datadog's API key). `nowSeconds` is the signature's time.
 * Bodies are put together from each entry's JSON, which is serialized once.
 */
export function streamRequest(
  stream: Pick<LogStream, 'type' | 'url' | 'settings'>,
  secret: string,
  entries: readonly SerializedEntry[],
  nowSeconds: number,
): StreamRequest {
  const url = endpointOf(stream.type, stream.url);
  const s = stream.settings;
  switch (stream.type) {
    case 'https': {
      const first = entries[0] as SerializedEntry;
      const last = entries[entries.length - 1] as SerializedEntry;
      const timestamp = new Date(nowSeconds * 1000).toISOString();
      const body = `{"type":"audit.batch","timestamp":${str(timestamp)},"data":[${entries.map((e) => e.json).join(',')}]}`;
      // The batch's id names its first and last entry: a resend of the same batch has the same id.
      const id = `lsb_${first.id}_${last.id}`;
      return { url, headers: signedHeaders(signingKey(secret), id, nowSeconds, body), body, gzip: false };
    }
    case 'splunk_hec': {
      const meta =
        `"source":${str(s.source ?? 'tessera')},"sourcetype":${str(s.sourcetype ?? 'tessera:audit')}` +
        (s.index === undefined ? '' : `,"index":${str(s.index)}`);
      const body = entries
        .map((e) => `{"time":${epochSecondsText(e.atMs)},${meta},"event":${e.json}}`)
        .join('\n');
      return { url, headers: { authorization: `Splunk ${secret}` }, body, gzip: false };
    }
    case 'datadog': {
      const head =
        `"ddsource":${str(s.ddsource ?? 'tessera')}` +
        (s.ddtags === undefined ? '' : `,"ddtags":${str(s.ddtags)}`) +
        `,"service":${str(s.service ?? 'tessera')}`;
      const logs = entries.map(
        (e) =>
          `{${head},"message":${str(`${e.key} by ${describeActor(e)}`)},"date":"${isoTime(e.atMs)}",` +
          `"evt":{"id":${str(e.id)},"name":${str(e.key)}},"audit":${e.json}}`,
      );
      return { url, headers: { 'dd-api-key': secret }, body: `[${logs.join(',')}]`, gzip: s.gzip === true };
    }
  }
}

function describeActor(entry: Pick<SerializedEntry, 'actor'>): string {
  return entry.actor.kind === 'system' ? 'system' : `${entry.actor.kind} ${entry.actor.id}`;
}
