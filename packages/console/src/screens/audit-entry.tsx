import { useId, useState } from 'preact/hooks';
import type { Actor, AuditEvent } from '../api/types.js';
import { TableFrame } from '../components/data-table.js';
import { Fact } from '../components/fact.js';
import { DiffTable, FieldTable } from '../components/json-diff.js';
import { Link } from '../components/link.js';
import { when } from '../format.js';
import type { ActorNames } from './audit-actors.js';

const VERB_BADGE: Record<AuditEvent['verb'], string> = {
  created: 'ok',
  updated: 'info',
  deleted: 'bad',
  login: '',
};

/** What an entry is about, as people know it: an email, a name, a slug; else its id. */
function subjectOf(data: Record<string, unknown>): string | null {
  for (const field of ['email', 'name', 'slug', 'url', 'kid', 'id']) {
    const value = data[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** Who caused an entry: the person's email or the client's name when known, else its id. */
export function ActorText({
  actor,
  names,
  withId = false,
}: {
  actor: Actor;
  names: ActorNames;
  withId?: boolean;
}) {
  if (actor.kind === 'system') return <span>System</span>;
  const kind = actor.kind === 'user' ? 'User' : 'Client';
  const name = names.get(actor.id);
  if (!name) {
    return (
      <span>
        {kind} <code class="actor-id">{actor.id}</code>
      </span>
    );
  }
  return (
    <span>
      {kind} <span class="actor-name">{name}</span>
      {withId ? (
        <>
          {' '}
          <code class="actor-id">{actor.id}</code>
        </>
      ) : null}
    </span>
  );
}

/** How the table names an entry's actor: by the names known, linked to the actor's page. */
interface ActorLinks {
  names: ActorNames;
  actorHref: (actorId: string) => string;
}

/** The table of one page of entries, newest first, each opening onto its details. */
export function AuditTable({ entries, names, actorHref }: ActorLinks & { entries: AuditEvent[] }) {
  return (
    <TableFrame
      class="audit stack"
      caption="Audit log entries, newest first"
      headings={['Time', 'Event', 'Actor', 'Details']}
    >
      <tbody>
        {entries.map((entry) => (
          <EntryRows key={entry.id} entry={entry} names={names} actorHref={actorHref} />
        ))}
      </tbody>
    </TableFrame>
  );
}

interface EntryProps extends ActorLinks {
  entry: AuditEvent;
}

function EntryRows({ entry, names, actorHref }: EntryProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const subject = subjectOf(entry.data);
  return (
    <>
      <tr class={open ? 'audit-row open' : 'audit-row'}>
        <td class="audit-cell audit-time" data-label="Time">
          <time dateTime={entry.at}>{when(entry.at)}</time>
        </td>
        <td class="audit-cell" data-label="Event">
          <div>
            <span class={`badge audit-verb ${VERB_BADGE[entry.verb] ?? ''}`}>{entry.key}</span>
            {subject ? <span class="audit-subject"> {subject}</span> : null}
            <div class="mono muted audit-id">{entry.id}</div>
          </div>
        </td>
        <td class="audit-cell" data-label="Actor">
          <ActorText actor={entry.actor} names={names} />
        </td>
        <td class="audit-cell" data-label="Details">
          <button
            type="button"
            class="secondary audit-toggle"
            aria-expanded={open}
            aria-controls={open ? id : undefined}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Show'}
            <span class="visually-hidden">
              {' '}
              {entry.key} of {when(entry.at)}
            </span>
          </button>
        </td>
      </tr>
      {open ? (
        <tr class="audit-detail" id={id}>
          <td colSpan={4} class="audit-detail-cell">
            <EntryDetail entry={entry} names={names} actorHref={actorHref} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function EntryDetail({ entry, names, actorHref }: EntryProps) {
  return (
    <div class="audit-entry">
      <dl class="facts">
        <Fact term="Entry" code={entry.id} />
        <Fact term="Key" code={entry.key} />
        <Fact term="At" code={entry.at} />
        <Fact term="By">
          <ActorText actor={entry.actor} names={names} withId />
          {entry.actor.kind !== 'system' ? (
            <>
              {' · '}
              <Link href={actorHref(entry.actor.id)}>Only this actor's entries</Link>
            </>
          ) : null}
        </Fact>
      </dl>
      {entry.verb === 'updated' ? (
        <DiffTable previous={entry.previous} data={entry.data} changes={entry.changes} />
      ) : (
        <FieldTable
          data={entry.data}
          caption={
            entry.verb === 'created' ? 'As created' : entry.verb === 'deleted' ? 'As deleted' : 'Sign-in'
          }
        />
      )}
    </div>
  );
}
