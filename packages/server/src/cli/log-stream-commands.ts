import { isoTimeOrNull } from '../domain/iso-time.js';
import {
  createLogStream,
  deleteLogStream,
  getLogStream,
  type LogStreamView,
  listLogStreams,
  logStreamSnapshot,
  updateLogStream,
} from '../domain/log-streams/index.js';
import { SYSTEM } from '../domain/types.js';
import { jsonBody } from '../http/management/api-input.js';
import { logStreamChanges, newLogStream } from '../http/management/log-stream-input.js';
import { CreateLogStreamBody, UpdateLogStreamBody } from '../http/management/log-streams-schemas.js';
import { givenOnly, required, UsageError } from './args.js';
import { deletion, inOrg, listing, showing } from './in-org.js';
import { readSecret } from './secret-input.js';
import type { Commands } from './usage.js';

type LogStreamCommand =
  | 'log-stream create'
  | 'log-stream list'
  | 'log-stream show'
  | 'log-stream update'
  | 'log-stream delete';

const TYPES = ['https', 'splunk_hec', 'datadog'] as const;
/** What each type's secret is called at the prompt; https makes its own. */
const SECRET = { splunk_hec: 'HEC token', datadog: 'Datadog API key' } as const;
const SETTING_FLAGS = ['index', 'source', 'sourcetype', 'service', 'ddsource', 'ddtags'] as const;

/** A stream as the management API's view has it (camelCase, like every CLI answer): its health, never a secret. */
const shown = (s: LogStreamView) => ({
  ...logStreamSnapshot(s),
  status: s.status,
  lastError: s.lastError,
  lastErrorAt: isoTimeOrNull(s.lastErrorAt),
  lastSentAt: isoTimeOrNull(s.lastSentAt),
  sentEntries: s.sentEntries,
  lag: { entries: s.lag.entries, oldestUnsentAt: isoTimeOrNull(s.lag.oldestUnsentAt) },
});

type SettingFlags = { [K in (typeof SETTING_FLAGS)[number]]?: string } & {
  gzip?: boolean;
  'no-gzip'?: boolean;
};

/** The setting flags given, in the API's field names; `--gzip` / `--no-gzip` as a choice. */
function settingsOf(f: SettingFlags): Record<string, string | boolean> {
  if (f.gzip && f['no-gzip']) throw new UsageError('give one of --gzip or --no-gzip');
  const given = Object.fromEntries(SETTING_FLAGS.filter((k) => f[k] !== undefined).map((k) => [k, f[k]]));
  return { ...given, ...(f.gzip ? { gzip: true } : f['no-gzip'] ? { gzip: false } : {}) };
}

/** `--pause` / `--resume`: the stream's `active`, or undefined when neither is given. */
function activeOf(f: { pause?: boolean; resume?: boolean }): boolean | undefined {
  if (f.pause && f.resume) throw new UsageError('give one of --pause or --resume');
  return f.pause ? false : f.resume ? true : undefined;
}

/**
 * Audit-log streams (DESIGN §19), through the domain functions the management API uses. Input is
 * checked by the API's own body schemas, so a bad value is refused in the API's words.
 */
export const LOG_STREAM_COMMANDS: Commands<LogStreamCommand> = {
  'log-stream create'(f) {
    const slug = required(f.org, 'org');
    const type = required(f.type, 'type');
    if (!(TYPES as readonly string[]).includes(type))
      throw new UsageError('--type must be https, splunk_hec or datadog');
    const draft = {
      type,
      name: required(f.name, 'name'),
      ...(type === 'datadog' ? {} : { url: required(f.url, 'url') }),
      ...(type === 'datadog' && f.url !== undefined ? { url: f.url } : {}),
      ...(f['backfill-from'] === undefined ? {} : { backfill_from: f['backfill-from'] }),
      ...settingsOf(f),
    };
    return async () => {
      const secret = type === 'splunk_hec' || type === 'datadog' ? await readSecret(SECRET[type]) : null;
      const b = jsonBody('invalid_request', CreateLogStreamBody, {
        ...draft,
        ...(type === 'splunk_hec' ? { token: secret } : type === 'datadog' ? { api_key: secret } : {}),
      });
      return inOrg(slug, async (deps, org) => {
        const made = await createLogStream(deps, org, newLogStream(b), SYSTEM);
        return { ...shown(made.stream), ...(made.secret === null ? {} : { secret: made.secret }) };
      })();
    };
  },

  'log-stream list': listing(
    async (deps, org) => (await listLogStreams(deps, org, { page: 0, perPage: 100 })).entries,
    shown,
  ),

  'log-stream show': showing(getLogStream, shown),

  'log-stream update'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    const changes = { ...givenOnly({ name: f.name, url: f.url, active: activeOf(f) }), ...settingsOf(f) };
    const newSecret = f['new-secret'] === true;
    if (!newSecret && Object.keys(changes).length === 0) throw new UsageError('give at least one change');
    return async () => {
      const secret = newSecret ? await readSecret('New HEC token or API key') : undefined;
      return inOrg(slug, async (deps, org) => {
        // The secret's field is the stream's type's: a HEC token or a Datadog API key.
        const type = secret === undefined ? null : (await getLogStream(deps, org, id)).type;
        const b = jsonBody('invalid_request', UpdateLogStreamBody, {
          ...changes,
          ...(secret === undefined ? {} : type === 'datadog' ? { api_key: secret } : { token: secret }),
        });
        return shown(await updateLogStream(deps, org, id, logStreamChanges(b), SYSTEM));
      })();
    };
  },

  'log-stream delete': deletion(deleteLogStream),
};
