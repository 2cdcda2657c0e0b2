import type { CreateLogStreamBody, LogStream, LogStreamType, UpdateLogStreamBody } from '../api/types.js';
import { CheckboxField, SelectField, TextField } from '../components/fields.js';

/** What the log-stream screens share: a form's values, the fields of each type, what is sent. */

export const TYPE_LABELS: Record<LogStreamType, string> = {
  https: 'HTTPS (signed batches)',
  splunk_hec: 'Splunk HTTP Event Collector',
  datadog: 'Datadog',
};

export const TYPES = Object.entries(TYPE_LABELS) as [LogStreamType, string][];

/** Datadog's sites and their logs intake; `other` is a URL typed by hand. */
const DATADOG_SITES = [
  ['https://http-intake.logs.datadoghq.com', 'US1 (datadoghq.com)'],
  ['https://http-intake.logs.us3.datadoghq.com', 'US3 (us3.datadoghq.com)'],
  ['https://http-intake.logs.us5.datadoghq.com', 'US5 (us5.datadoghq.com)'],
  ['https://http-intake.logs.datadoghq.eu', 'EU1 (datadoghq.eu)'],
  ['https://http-intake.logs.ap1.datadoghq.com', 'AP1 (ap1.datadoghq.com)'],
  ['https://http-intake.logs.ddog-gov.com', 'US1-FED (ddog-gov.com)'],
  ['other', 'Another intake URL'],
] as const;

/** A stream form's values as typed. The token or API key is write-only: never filled in from the API. */
export interface StreamDraft {
  type: LogStreamType;
  name: string;
  url: string;
  /** Datadog: a site's intake, or `other` (then `url`). */
  site: string;
  secret: string;
  index: string;
  source: string;
  sourcetype: string;
  service: string;
  ddsource: string;
  ddtags: string;
  gzip: boolean;
  /** `datetime-local` text, in the browser's time zone; empty: from the stream's creation. */
  backfillFrom: string;
}

const SPLUNK_LABELS = ['index', 'source', 'sourcetype'] as const;
const DATADOG_LABELS = ['service', 'ddsource', 'ddtags'] as const;
const LABELS_OF = { https: [], splunk_hec: SPLUNK_LABELS, datadog: DATADOG_LABELS } as const;

export const emptyDraft = (): StreamDraft => ({
  type: 'https',
  name: '',
  url: 'https://',
  site: DATADOG_SITES[0][0],
  secret: '',
  index: '',
  source: '',
  sourcetype: '',
  service: '',
  ddsource: '',
  ddtags: '',
  gzip: false,
  backfillFrom: '',
});

/** The draft of a stored stream: its settings, never a secret. */
export function draftOf(s: LogStream): StreamDraft {
  const site = DATADOG_SITES.find(([url]) => url === s.url)?.[0] ?? 'other';
  return {
    ...emptyDraft(),
    type: s.type,
    name: s.name,
    url: s.url,
    site,
    index: s.settings.index ?? '',
    source: s.settings.source ?? '',
    sourcetype: s.settings.sourcetype ?? '',
    service: s.settings.service ?? '',
    ddsource: s.settings.ddsource ?? '',
    ddtags: s.settings.ddtags ?? '',
    gzip: s.settings.gzip ?? false,
  };
}

/** Where the stream sends: Datadog's site intake, or the URL typed. */
const urlOf = (d: StreamDraft) => (d.type === 'datadog' && d.site !== 'other' ? d.site : d.url.trim());

/** The label settings of the draft's type that are filled in. */
function labelsOf(d: StreamDraft): Record<string, string> {
  return Object.fromEntries(
    LABELS_OF[d.type].map((k) => [k, d[k].trim()] as const).filter(([, v]) => v !== ''),
  );
}

/** A `datetime-local` value as an instant (the browser's time zone), or undefined when empty. */
const instantOf = (local: string) => (local === '' ? undefined : new Date(local).toISOString());

/** What the API takes to create the stream the draft describes. */
export function createBody(d: StreamDraft): CreateLogStreamBody {
  const backfill = instantOf(d.backfillFrom);
  const common = { name: d.name.trim(), url: urlOf(d), ...(backfill ? { backfill_from: backfill } : {}) };
  if (d.type === 'https') return { type: 'https', ...common };
  if (d.type === 'splunk_hec') return { type: 'splunk_hec', ...common, token: d.secret, ...labelsOf(d) };
  return { type: 'datadog', ...common, api_key: d.secret, ...labelsOf(d), ...(d.gzip ? { gzip: true } : {}) };
}

/** Only what differs from the stored stream; a new token or API key only when one was typed. */
export function changesOf(s: LogStream, d: StreamDraft): UpdateLogStreamBody {
  const url = urlOf(d);
  const labels = Object.entries(labelsOf(d)).filter(
    ([k, v]) => s.settings[k as keyof LogStream['settings']] !== v,
  );
  return {
    ...(d.name.trim() === s.name ? {} : { name: d.name.trim() }),
    ...(url === s.url ? {} : { url }),
    ...Object.fromEntries(labels),
    ...(s.type === 'datadog' && d.gzip !== (s.settings.gzip ?? false) ? { gzip: d.gzip } : {}),
    ...(d.secret === '' ? {} : s.type === 'splunk_hec' ? { token: d.secret } : { api_key: d.secret }),
  };
}

type Change = (change: Partial<StreamDraft>) => void;

/** The fields of the draft's type; `editing`: the secret is a new one, blank to keep the stored one. */
export function StreamFields({ draft, set, editing }: { draft: StreamDraft; set: Change; editing: boolean }) {
  const keep = editing ? ' Leave it blank to keep the stored one; it is never shown.' : '';
  const keepSetting = editing ? ' A setting once given can be changed, not removed.' : '';
  return (
    <>
      <TextField
        label="Name"
        name="name"
        value={draft.name}
        onInput={(name) => set({ name })}
        required
        hint="For you only, like “SIEM” or “Splunk (prod)”; up to 100 characters."
      />
      {draft.type === 'datadog' ? (
        <SelectField
          label="Datadog site"
          name="site"
          value={draft.site}
          options={DATADOG_SITES}
          onChange={(site) => set({ site })}
          hint="The site of your Datadog account: logs go to its intake, /api/v2/logs."
        />
      ) : null}
      {draft.type !== 'datadog' || draft.site === 'other' ? (
        <TextField
          label={draft.type === 'splunk_hec' ? 'HEC URL' : draft.type === 'datadog' ? 'Intake URL' : 'URL'}
          name="url"
          type="url"
          value={draft.url}
          onInput={(url) => set({ url })}
          required
          hint={
            draft.type === 'splunk_hec'
              ? 'The HTTP Event Collector’s base URL, like https://splunk.example.com:8088: events go to /services/collector/event.'
              : 'An absolute https URL without user name or password: Tessera POSTs batches of entries there.'
          }
        />
      ) : null}
      {draft.type === 'splunk_hec' ? (
        <TextField
          label={editing ? 'New HEC token' : 'HEC token'}
          name="token"
          type="password"
          autoComplete="new-password"
          value={draft.secret}
          onInput={(secret) => set({ secret })}
          required={!editing}
          hint={`Sent as Authorization: Splunk <token>; stored encrypted.${keep}`}
        />
      ) : null}
      {draft.type === 'datadog' ? (
        <TextField
          label={editing ? 'New API key' : 'API key'}
          name="api_key"
          type="password"
          autoComplete="new-password"
          value={draft.secret}
          onInput={(secret) => set({ secret })}
          required={!editing}
          hint={`A Datadog API key, sent as DD-API-KEY; stored encrypted.${keep}`}
        />
      ) : null}
      {LABELS_OF[draft.type].map((k) => (
        <TextField
          key={k}
          label={LABEL_NAMES[k]}
          name={k}
          value={draft[k]}
          onInput={(v) => set({ [k]: v })}
          hint={`${LABEL_HINTS[k]}${keepSetting}`}
        />
      ))}
      {draft.type === 'datadog' ? (
        <CheckboxField
          label="Compress bodies (gzip)"
          name="gzip"
          checked={draft.gzip}
          onChange={(gzip) => set({ gzip })}
        />
      ) : null}
    </>
  );
}

const LABEL_NAMES = {
  index: 'Index',
  source: 'Source',
  sourcetype: 'Source type',
  service: 'Service',
  ddsource: 'Source (ddsource)',
  ddtags: 'Tags (ddtags)',
} as const;

const LABEL_HINTS = {
  index: 'Optional: the Splunk index; empty: the HEC token’s default index.',
  source: 'Optional: source of every event; empty: tessera.',
  sourcetype: 'Optional: sourcetype of every event; empty: tessera:audit.',
  service: 'Optional: service of every log; empty: tessera.',
  ddsource: 'Optional: ddsource of every log; empty: tessera.',
  ddtags: 'Optional: comma-separated key:value tags, like env:prod,team:identity.',
} as const;
