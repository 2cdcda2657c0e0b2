import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { oneIn } from '../api/params.js';
import type { LogStream } from '../api/types.js';
import { DeletePanel } from '../components/confirm-panel.js';
import { DetailPage } from '../components/detail-page.js';
import { EditPanel, useEditDraft } from '../components/edit-panel.js';
import { Fact } from '../components/fact.js';
import { SendingPanel } from '../components/sending-panel.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { LastError, lagText, StreamStatus, streamNews } from './log-stream-bits.js';
import { changesOf, draftOf, StreamFields, TYPE_LABELS } from './log-stream-fields.js';

type Org = OrgScreenProps['org'];

/** One stream: its health, its settings, pause and resume, changes, deletion. */
export function LogStreamPage({ org, id }: { org: Org; id: string }) {
  const listHref = orgHref(org.slug, 'log-streams');
  const loaded = useLoad(
    () => body(api.GET('/organizations/{org}/log-streams/{id}', oneIn(org.slug, id))),
    [org.slug, id],
  );
  /** Said by the edit form that the save remounts (its key is the stored version). */
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <DetailPage
      loaded={loaded}
      href={listHref}
      back="All log streams"
      name={(stream) => stream.name}
      fallback="Log stream"
      what="the log stream"
    >
      {(stream) => (
        <>
          <Health stream={stream} onRefresh={loaded.reload} />
          <Facts stream={stream} />
          <PauseResume org={org} stream={stream} onChanged={loaded.reload} />
          <EditStream
            key={`${stream.id} ${stream.updated_at}`}
            org={org}
            stream={stream}
            news={saved}
            onSaved={() => {
              setSaved('Changes saved.');
              loaded.reload();
            }}
          />
          <DeletePanel
            id="delete-stream"
            title="Delete log stream"
            question={`Delete the log stream ${stream.name} for good?`}
            remove={() => api.DELETE('/organizations/{org}/log-streams/{id}', oneIn(org.slug, stream.id))}
            news={{ to: streamNews, line: `Log stream ${stream.name} deleted.` }}
            href={listHref}
          >
            <p>Nothing more is sent to it; the audit log itself stays. This cannot be undone.</p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

function Health({ stream: s, onRefresh }: { stream: LogStream; onRefresh: () => void }) {
  return (
    <section class="panel" aria-labelledby="stream-health">
      <h2 id="stream-health">Health</h2>
      <dl class="facts">
        <Fact term="Status">
          <StreamStatus stream={s} />
          {s.status === 'failing' ? <span class="muted"> Retried with a growing delay.</span> : null}
        </Fact>
        <Fact term="Last error">
          <LastError stream={s} />
        </Fact>
        <Fact term="Waiting">{lagText(s)}</Fact>
        <Fact term="Last sent">{when(s.last_sent_at)}</Fact>
        <Fact term="Entries sent">{s.sent_entries}</Fact>
      </dl>
      <button type="button" class="secondary" onClick={onRefresh}>
        Refresh
      </button>
    </section>
  );
}

function Facts({ stream: s }: { stream: LogStream }) {
  const settings = Object.entries(s.settings);
  return (
    <dl class="facts panel">
      <Fact term="Id" code={s.id} />
      <Fact term="Destination">{TYPE_LABELS[s.type]}</Fact>
      <Fact term="URL" code={s.url} />
      <Fact term={s.type === 'https' ? 'Signing secret' : s.type === 'splunk_hec' ? 'HEC token' : 'API key'}>
        {s.type === 'https' ? 'Shown once, when it was created' : 'Stored encrypted; never shown'}
      </Fact>
      {settings.length > 0 ? (
        <Fact term="Settings">
          {settings.map(([k, v]) => (
            <span key={k} class="grant">
              {k}: {String(v)}
            </span>
          ))}
        </Fact>
      ) : null}
      <Fact term="Sends entries from">{when(s.backfill_from)}</Fact>
      <Fact term="Created">{when(s.created_at)}</Fact>
      <Fact term="Changed">{when(s.updated_at)}</Fact>
    </dl>
  );
}

/** PATCH active: false pauses; true resumes from the entry after the last one accepted. */
function PauseResume({ org, stream, onChanged }: { org: Org; stream: LogStream; onChanged: () => void }) {
  return (
    <SendingPanel
      id="stream-sending"
      active={stream.active}
      setActive={(active) =>
        ok(
          api.PATCH('/organizations/{org}/log-streams/{id}', {
            ...oneIn(org.slug, stream.id),
            body: { active },
          }),
        )
      }
      onChanged={onChanged}
      resumed="Resumed: sending from where it stopped."
      activeText="Sending each entry as it is written."
      activeHint="Nothing is skipped while paused: resuming sends what was written meanwhile."
      pausedText="Paused: nothing is sent."
    />
  );
}

function EditStream({
  org,
  stream,
  news,
  onSaved,
}: {
  org: Org;
  stream: LogStream;
  news: string | null;
  onSaved: () => void;
}) {
  // Drawn from the stored stream: the token or API key field starts blank.
  const { draft, set, saving } = useEditDraft(() => draftOf(stream), onSaved, news);
  return (
    <EditPanel
      id="edit-stream"
      title="Edit log stream"
      state={saving}
      onSubmit={() => {
        const changes = changesOf(stream, draft);
        // A token typed leaves the page as soon as it is stored; then the form is drawn again from
        // what is stored (onSaved).
        return saving.save(changes, async () => {
          await ok(
            api.PATCH('/organizations/{org}/log-streams/{id}', {
              ...oneIn(org.slug, stream.id),
              body: changes,
            }),
          );
          set({ secret: '' });
        });
      }}
    >
      <StreamFields draft={draft} set={set} editing />
      <p class="hint">A new URL, token or API key is tried at once, from the first entry not yet accepted.</p>
    </EditPanel>
  );
}
