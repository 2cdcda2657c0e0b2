import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import type { LogStream } from '../api/types.js';
import { ConfirmPanel } from '../components/confirm-panel.js';
import { EditPanel, useSave } from '../components/edit-panel.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, LoadNotice } from '../components/notices.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { LastError, lagText, StreamStatus, streamNews, thisStream } from './log-stream-bits.js';
import { changesOf, draftOf, type StreamDraft, StreamFields, TYPE_LABELS } from './log-stream-fields.js';

type Org = OrgScreenProps['org'];

/** One stream: its health, its settings, pause and resume, changes, deletion. */
export function LogStreamPage({ org, id }: { org: Org; id: string }) {
  const loaded = useLoad(
    () => body(api.GET('/organizations/{org}/log-streams/{id}', thisStream(org.slug, id))),
    [org.slug, id],
  );
  /** Said by the edit form that the save remounts (its key is the stored version). */
  const [saved, setSaved] = useState<string | null>(null);
  const stream = loaded.state === 'ok' ? loaded.data : null;
  return (
    <>
      <p class="crumbs">
        <Link href={orgHref(org.slug, 'log-streams')}>← All log streams</Link>
      </p>
      <h1>{stream ? stream.name : 'Log stream'}</h1>
      <LoadNotice loaded={loaded} what="the log stream" />
      {stream ? (
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
          <DeleteStream org={org} stream={stream} />
        </>
      ) : null}
    </>
  );
}

function Health({ stream: s, onRefresh }: { stream: LogStream; onRefresh: () => void }) {
  return (
    <section class="panel" aria-labelledby="stream-health">
      <h2 id="stream-health">Health</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StreamStatus stream={s} />
          {s.status === 'failing' ? <span class="muted"> Retried with a growing delay.</span> : null}
        </dd>
        <dt>Last error</dt>
        <dd>
          <LastError stream={s} />
        </dd>
        <dt>Waiting</dt>
        <dd>{lagText(s)}</dd>
        <dt>Last sent</dt>
        <dd>{when(s.last_sent_at)}</dd>
        <dt>Entries sent</dt>
        <dd>{s.sent_entries}</dd>
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
      <dt>Id</dt>
      <dd>
        <code>{s.id}</code>
      </dd>
      <dt>Destination</dt>
      <dd>{TYPE_LABELS[s.type]}</dd>
      <dt>URL</dt>
      <dd>
        <code>{s.url}</code>
      </dd>
      <dt>{s.type === 'https' ? 'Signing secret' : s.type === 'splunk_hec' ? 'HEC token' : 'API key'}</dt>
      <dd>{s.type === 'https' ? 'Shown once, when it was created' : 'Stored encrypted; never shown'}</dd>
      {settings.length > 0 ? (
        <>
          <dt>Settings</dt>
          <dd>
            {settings.map(([k, v]) => (
              <span key={k} class="grant">
                {k}: {String(v)}
              </span>
            ))}
          </dd>
        </>
      ) : null}
      <dt>Sends entries from</dt>
      <dd>{when(s.backfill_from)}</dd>
      <dt>Created</dt>
      <dd>{when(s.created_at)}</dd>
      <dt>Changed</dt>
      <dd>{when(s.updated_at)}</dd>
    </dl>
  );
}

/** PATCH active: false pauses; true resumes from the entry after the last one accepted. */
function PauseResume({ org, stream, onChanged }: { org: Org; stream: LogStream; onChanged: () => void }) {
  const { error, busy, run } = useAction();
  const [done, setDone] = useState<boolean | null>(null);
  const set = (active: boolean) => {
    setDone(null);
    return run(async () => {
      await ok(
        api.PATCH('/organizations/{org}/log-streams/{id}', {
          ...thisStream(org.slug, stream.id),
          body: { active },
        }),
      );
      setDone(active);
      onChanged();
    });
  };
  return (
    <section class="panel" aria-labelledby="stream-sending">
      <h2 id="stream-sending">Sending</h2>
      <ErrorNotice error={error} />
      {done === stream.active ? (
        <Done>
          {done ? 'Resumed: sending from where it stopped.' : 'Paused: nothing is sent until you resume it.'}
        </Done>
      ) : null}
      {stream.active ? (
        <>
          <p>Sending each entry as it is written.</p>
          <button type="button" class="secondary" disabled={busy} onClick={() => set(false)}>
            Pause
          </button>
          <p class="hint">Nothing is skipped while paused: resuming sends what was written meanwhile.</p>
        </>
      ) : (
        <>
          <p>Paused: nothing is sent.</p>
          <button type="button" disabled={busy} onClick={() => set(true)}>
            Resume
          </button>
        </>
      )}
    </section>
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
  const [draft, setDraft] = useState(() => draftOf(stream));
  const set = (change: Partial<StreamDraft>) => setDraft((d) => ({ ...d, ...change }));
  const saving = useSave(onSaved);
  return (
    <EditPanel
      id="edit-stream"
      title="Edit log stream"
      state={{ ...saving, saved: saving.saved ?? news }}
      onSubmit={() => {
        const changes = changesOf(stream, draft);
        // A token typed leaves the page as soon as it is stored; then the form is drawn again from
        // what is stored (onSaved).
        return saving.save(changes, async () => {
          await ok(
            api.PATCH('/organizations/{org}/log-streams/{id}', {
              ...thisStream(org.slug, stream.id),
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

function DeleteStream({ org, stream }: { org: Org; stream: LogStream }) {
  return (
    <ConfirmPanel
      id="delete-stream"
      title="Delete log stream"
      question={`Delete the log stream ${stream.name} for good?`}
      onConfirm={async () => {
        await ok(api.DELETE('/organizations/{org}/log-streams/{id}', thisStream(org.slug, stream.id)));
        streamNews.set(`Log stream ${stream.name} deleted.`);
        navigate(orgHref(org.slug, 'log-streams'));
      }}
    >
      <p>Nothing more is sent to it; the audit log itself stays. This cannot be undone.</p>
    </ConfirmPanel>
  );
}
