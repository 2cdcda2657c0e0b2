import { api, body } from '../api/client.js';
import { logStreamsPage } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import type { CreatedLogStream } from '../api/types.js';
import { SelectField, TextField } from '../components/fields.js';
import { FormPanel } from '../components/form-panel.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { Done, EmptyState } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useCreating } from '../use-creating.js';
import { useDraft } from '../use-draft.js';
import { useAddressListPage } from '../use-list-page.js';
import { LastError, lagText, StreamStatus, StreamsOwnersOnly, streamNews } from './log-stream-bits.js';
import { createBody, emptyDraft, StreamFields, TYPE_LABELS, TYPES } from './log-stream-fields.js';
import { LogStreamPage } from './log-stream-page.js';

type Org = OrgScreenProps['org'];

const _listHref = (slug: string) => orgHref(slug, 'log-streams');

/** The org's audit-log streams (owners only, like the API): each with its health, a new one. */
export const LogStreams = forOwners('Log streams', StreamsOwnersOnly, StreamList);

/** One stream's page (owners only). */
export const LogStreamDetail = forOwners('Log stream', StreamsOwnersOnly, LogStreamPage);

function StreamList({ org }: { org: Org }) {
  const create = useCreating<CreatedLogStream>('New log stream');
  const { loaded, go } = useAddressListPage(org.slug, 'log-streams', logStreamsPage);
  return (
    <ListScreen
      title="Log streams"
      action={create.action}
      news={streamNews}
      intro={
        <>
          Tessera sends every entry of {org.name}’s audit log, in order, to your SIEM: an HTTPS endpoint,
          Splunk or Datadog. An entry is sent at least once, always with its id, so a repeat can be dropped.
        </>
      }
    >
      {create.creating ? (
        <NewStream
          org={org}
          onCancel={create.cancel}
          onCreated={(stream) => {
            create.done(stream);
            loaded.reload();
          }}
        />
      ) : null}
      {create.created ? <Created org={org} stream={create.created} onDismiss={create.dismiss} /> : null}
      <div class="toolbar">
        <button type="button" class="secondary" onClick={loaded.reload}>
          Refresh
        </button>
      </div>
      <ListTable
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
        caption="Log streams"
        rowKey={(s) => s.id}
        columns={[
          { label: 'Name', cell: (s) => <Link href={orgHref(org.slug, 'log-streams', s.id)}>{s.name}</Link> },
          { label: 'Type', cell: (s) => TYPE_LABELS[s.type] },
          { label: 'Status', cell: (s) => <StreamStatus stream={s} /> },
          { label: 'Last error', cell: (s) => <LastError stream={s} /> },
          { label: 'Waiting', cell: lagText },
          { label: 'Last sent', cell: (s) => when(s.last_sent_at) },
        ]}
      />
    </ListScreen>
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
  const [draft, set] = useDraft(emptyDraft);
  const action = useAction();
  return (
    <FormPanel
      id="new-stream-title"
      title="New log stream"
      submit="Create log stream"
      state={action}
      onCancel={onCancel}
      onSubmit={() =>
        action.run(async () => {
          const stream = await body(
            api.POST('/organizations/{org}/log-streams', {
              ...inOrg(org.slug),
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
    </FormPanel>
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
