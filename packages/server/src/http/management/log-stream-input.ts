import type { z } from 'zod';
import {
  DEFAULT_DATADOG_URL,
  type LogStreamChanges,
  type LogStreamSettings,
  type NewLogStream,
} from '../../domain/log-streams/index.js';
import { sentFields } from './api-input.js';
import type { CreateLogStreamBody, UpdateLogStreamBody } from './log-streams-schemas.js';

/**
 * A log stream's API body as the domain's input, for the management API and the `tessera log-stream`
 * commands (which check their flags with the same body schemas).
 */

const SETTINGS = ['index', 'source', 'sourcetype', 'service', 'ddsource', 'ddtags', 'gzip'] as const;

/** The given settings of a body, without the absent ones. */
function settingsOf(b: object): LogStreamSettings {
  const given = b as Partial<Record<keyof LogStreamSettings, unknown>>;
  return Object.fromEntries(
    SETTINGS.filter((k) => given[k] !== undefined).map((k) => [k, given[k]]),
  ) as LogStreamSettings;
}

/** A create body as the stream to make: a Datadog stream's URL defaults, its type's secret is taken. */
export const newLogStream = (b: z.output<typeof CreateLogStreamBody>): NewLogStream => ({
  name: b.name,
  type: b.type,
  url: b.type === 'datadog' ? (b.url ?? DEFAULT_DATADOG_URL) : b.url,
  secret: b.type === 'splunk_hec' ? b.token : b.type === 'datadog' ? b.api_key : null,
  settings: settingsOf(b),
  backfillFrom: b.backfill_from ?? null,
});

/** An update body as the changes it asks for: absent fields (and no settings) change nothing. */
export function logStreamChanges(b: z.output<typeof UpdateLogStreamBody>): LogStreamChanges {
  const settings = settingsOf(b);
  return {
    ...sentFields(b, { name: 'name', url: 'url', active: 'active', token: 'token', api_key: 'apiKey' }),
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
  };
}
