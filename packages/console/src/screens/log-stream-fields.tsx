import type { CreateLogStreamBody, LogStream, LogStreamType, UpdateLogStreamBody } from '../api/types.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';

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

/** The fields of the draft's type, in order; `editing`: the secret is a new one, blank to keep the stored one. */
function streamFields(d: StreamDraft, editing: boolean): (FieldDecl<StreamDraft> | false)[] {
  const keep = editing ? ' Leave it blank to keep the stored one; it is never shown.' : '';
  const keepSetting = editing ? ' A setting once given can be changed, not removed.' : '';
  const secret = {
    key: 'secret',
    type: 'password',
    autoComplete: 'new-password',
    required: !editing,
  } as const;
  return [
    {
      key: 'name',
      label: 'Name',
      required: true,
      hint: 'For you only, like “SIEM” or “Splunk (prod)”; up to 100 characters.',
    },
    d.type === 'datadog' && {
      kind: 'select',
      key: 'site',
      label: 'Datadog site',
      options: DATADOG_SITES,
      hint: 'The site of your Datadog account: logs go to its intake, /api/v2/logs.',
    },
    (d.type !== 'datadog' || d.site === 'other') && {
      key: 'url',
      label: d.type === 'splunk_hec' ? 'HEC URL' : d.type === 'datadog' ? 'Intake URL' : 'URL',
      type: 'url',
      required: true,
      hint:
        d.type === 'splunk_hec'
          ? 'The HTTP Event Collector’s base URL, like https://splunk.example.com:8088: events go to /services/collector/event.'
          : 'An absolute https URL without user name or password: Tessera POSTs batches of entries there.',
    },
    d.type === 'splunk_hec' && {
      ...secret,
      name: 'token',
      label: editing ? 'New HEC token' : 'HEC token',
      hint: `Sent as Authorization: Splunk <token>; stored encrypted.${keep}`,
    },
    d.type === 'datadog' && {
      ...secret,
      name: 'api_key',
      label: editing ? 'New API key' : 'API key',
      hint: `A Datadog API key, sent as DD-API-KEY; stored encrypted.${keep}`,
    },
    ...LABELS_OF[d.type].map((k) => ({
      key: k,
      label: LABEL_NAMES[k],
      hint: `${LABEL_HINTS[k]}${keepSetting}`,
    })),
    d.type === 'datadog' && { kind: 'checkbox', key: 'gzip', label: 'Compress bodies (gzip)' },
  ];
}

/** The fields of the draft's type; `editing`: the secret is a new one, blank to keep the stored one. */
export function StreamFields({ draft, set, editing }: { draft: StreamDraft; set: Change; editing: boolean }) {
  return <DraftFields draft={draft} set={set} fields={streamFields(draft, editing)} />;
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
