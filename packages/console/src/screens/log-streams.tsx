import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { listPage } from '../api/lists.js';
import type { CreatedLogStream } from '../api/types.js';
import { DataTable } from '../components/data-table.js';
import { Form, SelectField, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { OwnersOnly, PageHead } from '../components/page-head.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { useAddressPage } from '../use-page.js';
import { LastError, lagText, StreamStatus, StreamsOwnersOnly, streamNews } from './log-stream-bits.js';
import {
  createBody,
  emptyDraft,
  type StreamDraft,
  StreamFields,
  TYPE_LABELS,
  TYPES,
} from './log-stream-fields.js';
import { LogStreamPage } from './log-stream-page.js';

type Org = OrgScreenProps['org'];

const listHref = (slug: string) => orgHref(slug, 'log-streams');

/** The org's audit-log streams (owners only, like the API): each with its health, a new one. */
export function LogStreams({ org }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="Log streams"
      notice={<StreamsOwnersOnly />}
      screen={() => <StreamList org={org} />}
    />
  );
}

/** One stream's page (owners only). */
export function LogStreamDetail({ org, id }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="Log stream"
      notice={<StreamsOwnersOnly />}
      screen={() => <LogStreamPage org={org} id={id ?? ''} />}
    />
  );
}

function StreamList({ org }: { org: Org }) {
  const { page, go } = useAddressPage(listHref(org.slug));
  const [news] = useState(streamNews.take);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedLogStream | null>(null);
  const loaded = useLoad(
    () =>
      listPage(
        api.GET('/organizations/{org}/log-streams', { params: { path: { org: org.slug }, query: { page } } }),
      ),
    [org.slug, page],
  );
  return (
    <>
      <PageHead
        title="Log streams"
        action={
          creating
            ? null
            : {
                label: 'New log stream',
                onClick: () => {
                  setCreated(null);
                  setCreating(true);
                },
              }
        }
      />
      <p class="muted">
        Tessera sends every entry of {org.name}’s audit log, in order, to your SIEM: an HTTPS endpoint, Splunk
        or Datadog. An entry is sent at least once, always with its id, so a repeat can be dropped.
      </p>
      {news ? <Done>{news}</Done> : null}
      {creating ? (
        <NewStream
          org={org}
          onCancel={() => setCreating(false)}
          onCreated={(stream) => {
            setCreating(false);
            setCreated(stream);
            loaded.reload();
          }}
        />
      ) : null}
      {created ? <Created org={org} stream={created} onDismiss={() => setCreated(null)} /> : null}
      <div class="toolbar">
        <button type="button" class="secondary" onClick={loaded.reload}>
          Refresh
        </button>
      </div>
      <ListView
        loaded={loaded}
        what="log streams"
        pager="Pages of log streams"
        onGo={go}
        empty={
          <EmptyState title="No log streams yet">
            <p>
              Choose <strong>New log stream</strong> to send the audit log to Splunk, Datadog or your own
              HTTPS endpoint.
            </p>
          </EmptyState>
        }
      >
        {(streams) => (
          <DataTable
            caption="Log streams"
            rows={streams}
            rowKey={(s) => s.id}
            columns={[
              {
                label: 'Name',
                cell: (s) => <Link href={orgHref(org.slug, 'log-streams', s.id)}>{s.name}</Link>,
              },
              { label: 'Type', cell: (s) => TYPE_LABELS[s.type] },
              { label: 'Status', cell: (s) => <StreamStatus stream={s} /> },
              { label: 'Last error', cell: (s) => <LastError stream={s} /> },
              { label: 'Waiting', cell: lagText },
              { label: 'Last sent', cell: (s) => when(s.last_sent_at) },
            ]}
          />
        )}
      </ListView>
    </>
  );
}

function NewStream({
  org,
  onCancel,
  onCreated,
}: {
  org: Org;
  onCancel: () => void;
  onCreated: (stream: CreatedLogStream) => void;
}) {
  const [draft, setDraft] = useState(emptyDraft);
  const set = (change: Partial<StreamDraft>) => setDraft((d) => ({ ...d, ...change }));
  const { error, busy, run } = useAction();
  return (
    <section class="panel" aria-labelledby="new-stream-title">
      <h2 id="new-stream-title">New log stream</h2>
      <ErrorNotice error={error} />
      <Form
        label="New log stream"
        onSubmit={() =>
          run(async () => {
            const stream = await body(
              api.POST('/organizations/{org}/log-streams', {
                params: { path: { org: org.slug } },
                body: createBody(draft),
              }),
            );
            // The token or API key typed leaves the page with the form.
            onCreated(stream);
          })
        }
      >
        <SelectField
          label="Destination"
          name="type"
          value={draft.type}
          options={TYPES}
          onChange={(type) => set({ type, secret: '' })}
        />
        <StreamFields draft={draft} set={set} editing={false} />
        <TextField
          label="Send entries from"
          name="backfill_from"
          type="datetime-local"
          value={draft.backfillFrom}
          onInput={(backfillFrom) => set({ backfillFrom })}
          hint="Optional, in your time zone: entries already written since then are sent first. Empty: from now."
        />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create log stream
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </section>
  );
}

/** A new stream: where to see it, and an https stream's signing secret, once. */
function Created({ org, stream, onDismiss }: { org: Org; stream: CreatedLogStream; onDismiss: () => void }) {
  return (
    <>
      <Done>
        Log stream {stream.name} created.{' '}
        <Link href={orgHref(org.slug, 'log-streams', stream.id)}>Open it</Link> to watch its health.
      </Done>
      {stream.secret ? (
        <>
          <p class="notice info">
            Every batch is signed the Standard Webhooks way (<code>webhook-id</code>,{' '}
            <code>webhook-timestamp</code> and <code>webhook-signature</code> headers): your endpoint verifies
            it with this secret.
          </p>
          <SecretOnce label="Signing secret" value={stream.secret} onDismiss={onDismiss} />
        </>
      ) : null}
    </>
  );
}
