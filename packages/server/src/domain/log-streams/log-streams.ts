import { randomBytes } from 'node:crypto';
import { streamLag } from '../../storage/repos/audit-events.js';
import {
  countLogStreams,
  deleteLogStream as deleteRow,
  findLogStream,
  insertLogStream,
  listLogStreams as listRows,
  updateLogStreamRow,
} from '../../storage/repos/log-streams.js';
import { lockOrg } from '../../storage/repos/orgs.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { failApi } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, pageOfAll } from '../paging.js';
import { runForIdOf } from '../run-for-id.js';
import type { Actor, LogStream, LogStreamSettings, LogStreamType, Org } from '../types.js';
import { isLoopbackUrl } from '../webhooks/loopback-url.js';
import type { LogStreamDeps } from './deps.js';

export type { LogStream, LogStreamSettings, LogStreamType };

/** Streams an org may have. */
export const MAX_STREAMS = 10;
/** Entries behind are counted up to this many. */
export const LAG_CAP = 10_000;

export type StreamStatus = 'active' | 'failing' | 'paused';

/** A stream as its owners read it: its health and how far behind it is. */
export interface LogStreamView extends LogStream {
  status: StreamStatus;
  lag: {
    /** Entries not yet accepted by the destination, counted up to LAG_CAP. */
    entries: number;
    /** The time of the next entry to send (epoch ms), or null. */
    oldestUnsentAt: number | null;
  };
}

export interface NewLogStream {
  name: string;
  type: LogStreamType;
  /** Already checked: an https URL without credentials. */
  url: string;
  /** splunk_hec: the HEC token; datadog: the API key; https: none (a secret is made). */
  secret: string | null;
  settings: LogStreamSettings;
  /** Stream entries at or after this time (epoch ms); null: from now on. */
  backfillFrom: number | null;
}

/** The audit snapshot: camelCase, never the secret. */
export const logStreamSnapshot = (s: LogStream) => ({
  ...fieldsOf(s, ['id', 'name', 'type', 'url', 'settings', 'active']),
  ...isoTimesOf(s, ['backfillFrom', 'createdAt', 'updatedAt']),
});

const audit = auditTrail('log_stream', logStreamSnapshot);

/** The https type's Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes, as webhooks'. */
const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A stream URL on this machine is refused (400) while TESSERA_OUTBOUND_ALLOW_PRIVATE is off, as a
 * webhook URL is: the address policy would refuse every request to it. Other private addresses are
 * refused when resolved, at each connection.
 */
export function refuseLoopbackStreamUrl(deps: Pick<LogStreamDeps, 'config'>, url: string): void {
  if (deps.config.outboundAllowPrivate || !isLoopbackUrl(url)) return;
  failApi(
    'log_stream.url.loopback',
    'url: points at this machine (loopback), which log streams may not reach; for local development set ' +
      'TESSERA_OUTBOUND_ALLOW_PRIVATE=1 (see README)',
  );
}

/**
 * Creates an active stream and its `log_stream.created` entry in one transaction. It streams the
 * org's entries from `backfillFrom` on (default: its creation). The https type's signing secret is
 * made here and returned once; a given token or API key is only ever stored sealed.
 */
export async function createLogStream(
  deps: LogStreamDeps,
  org: Org,
  input: NewLogStream,
  actor: Actor,
): Promise<{ stream: LogStreamView; secret: string | null }> {
  refuseLoopbackStreamUrl(deps, input.url);
  const now = clock.now();
  const stream: LogStream = {
    id: newResourceId('logStream'),
    orgId: org.id,
    name: input.name,
    type: input.type,
    url: input.url,
    settings: input.settings,
    active: true,
    backfillFrom: input.backfillFrom ?? now,
    cursor: null,
    failures: 0,
    lastError: null,
    lastErrorAt: null,
    lastSentAt: null,
    sentEntries: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
  const made = input.type === 'https' ? newSigningSecret() : null;
  const secret = made ?? (input.secret as string);
  await deps.unitOfWork.run(async (tx) => {
    // Two creates at once take turns, so neither passes the limit on the other's count.
    await lockOrg(tx, org.id);
    if ((await countLogStreams(tx, org.id)) >= MAX_STREAMS) {
      failApi('log_stream.too_many', `an organization has at most ${MAX_STREAMS} log streams`);
    }
    await insertLogStream(tx, stream, deps.sealer.seal(secret));
    await audit.created(tx, { orgId: org.id, actor, at: now }, stream);
  });
  return { stream: await withHealth(deps, stream), secret: made };
}

/** One page of the org's streams with their health, oldest first (an org has at most MAX_STREAMS). */
export async function listLogStreams(
  deps: LogStreamDeps,
  org: Org,
  paging: PageAsked,
): Promise<{ entries: LogStreamView[]; total: number }> {
  const { entries, total } = pageOfAll(await listRows(deps.store, org.id), paging);
  return { entries: await Promise.all(entries.map((s) => withHealth(deps, s))), total };
}

/** One of the org's streams with its health; 404 for any other id. */
export async function getLogStream(deps: LogStreamDeps, org: Org, id: string): Promise<LogStreamView> {
  return withHealth(deps, await requireStream(deps, org, id));
}

const noSuchStream = () => failApi('log_stream.not_found', 'no such log stream');

async function requireStream(deps: LogStreamDeps, org: Org, id: string): Promise<LogStream> {
  const found = isIdOf('logStream', id) ? await findLogStream(deps.store, org.id, id) : null;
  return found ?? noSuchStream();
}

/** What an update may change; an absent field keeps its value. */
export interface LogStreamChanges {
  name?: string;
  /** Already checked: an https URL without credentials. */
  url?: string;
  /** splunk_hec: a new HEC token. */
  token?: string;
  /** datadog: a new API key. */
  apiKey?: string;
  /** Settings of the stream's type to change (others keep their value). */
  settings?: LogStreamSettings;
  active?: boolean;
}

/** The settings each type takes, and the name of its secret in a change. */
const OWN_SETTINGS: Record<LogStreamType, readonly (keyof LogStreamSettings)[]> = {
  https: [],
  splunk_hec: ['index', 'source', 'sourcetype'],
  datadog: ['service', 'ddsource', 'ddtags', 'gzip'],
};

/** Refuses a change naming a setting (or secret) of another type: it would be stored and never used. */
function checkOwnFields(type: LogStreamType, changes: LogStreamChanges): void {
  const own = OWN_SETTINGS[type];
  const foreign = Object.keys(changes.settings ?? {}).filter(
    (k) => !own.includes(k as keyof LogStreamSettings),
  );
  if (changes.token !== undefined && type !== 'splunk_hec') foreign.push('token');
  if (changes.apiKey !== undefined && type !== 'datadog') foreign.push('api_key');
  if (foreign.length > 0) {
    failApi('log_stream.field.other_type', `not a setting of a ${type} stream: ${foreign.join(', ')}`);
  }
}

/**
 * Updates one of the org's streams (404 for any other id) with `log_stream.updated`. Its cursor never
 * moves here: a paused stream, turned on again, goes on from the entry after the last one accepted.
 * Turning it on, or a new URL or secret, makes it due at once with its failures forgotten.
 */
export async function updateLogStream(
  deps: LogStreamDeps,
  org: Org,
  id: string,
  changes: LogStreamChanges,
  actor: Actor,
): Promise<LogStreamView> {
  if (!isIdOf('logStream', id)) noSuchStream();
  if (changes.url !== undefined) refuseLoopbackStreamUrl(deps, changes.url);
  const updated = await deps.unitOfWork.run(async (tx) => {
    const before = (await findLogStream(tx, org.id, id)) ?? noSuchStream();
    checkOwnFields(before.type, changes);
    const secret = changes.token ?? changes.apiKey;
    const after: LogStream = {
      ...before,
      name: changes.name ?? before.name,
      url: changes.url ?? before.url,
      settings: { ...before.settings, ...changes.settings },
      active: changes.active ?? before.active,
      updatedAt: clock.now(),
    };
    const retryNow = (after.active && !before.active) || after.url !== before.url || secret !== undefined;
    const sealed = secret === undefined ? null : deps.sealer.seal(secret);
    await updateLogStreamRow(tx, after, sealed, retryNow);
    // A new secret shows as a change of nothing secret: the snapshot names when, not what.
    await audit.updated(tx, { orgId: org.id, actor, at: after.updatedAt }, before, after);
    return retryNow ? { ...after, failures: 0, nextAttemptAt: after.updatedAt } : after;
  });
  return withHealth(deps, updated);
}

/** Deletes one of the org's streams with its `log_stream.deleted` entry; 404 for any other id. */
export async function deleteLogStream(
  deps: LogStreamDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  await runForIdOf(deps.unitOfWork, 'logStream', id, noSuchStream, async (tx) => {
    const deleted = (await deleteRow(tx, org.id, id)) ?? noSuchStream();
    await audit.deleted(tx, { orgId: org.id, actor }, deleted);
  });
}

async function withHealth(deps: LogStreamDeps, s: LogStream): Promise<LogStreamView> {
  const lag = await streamLag(deps.store, s, LAG_CAP);
  const status: StreamStatus = !s.active ? 'paused' : s.failures > 0 ? 'failing' : 'active';
  return { ...s, status, lag: { entries: lag.behind, oldestUnsentAt: lag.nextAt } };
}
