import type { LogStream } from '../api/types.js';
import { when } from '../format.js';
import { oneTimeNews } from '../news.js';

/** What the log-stream screens share: the owners-only note, status, lag. */

/** Log streams are the API's owner-only lists: a member sees why there is nothing here. */
export function StreamsOwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can see and change where its audit log is streamed.
    </p>
  );
}

/** A line for the list to announce once (a stream just deleted). */
export const streamNews = oneTimeNews();

export function StreamStatus({ stream }: { stream: LogStream }) {
  if (stream.status === 'failing') return <span class="badge bad">Failing</span>;
  if (stream.status === 'paused') return <span class="badge warn">Paused</span>;
  return <span class="badge ok">Active</span>;
}

/** How far behind the destination is: entries waiting (counted up to 10 000) and since when. */
export function lagText(stream: LogStream): string {
  const { entries, oldest_unsent_at } = stream.lag;
  if (entries === 0) return 'Up to date';
  const count =
    entries >= 10_000 ? '10 000 or more entries' : `${entries} ${entries === 1 ? 'entry' : 'entries'}`;
  return `${count} waiting${oldest_unsent_at ? `, the oldest from ${when(oldest_unsent_at)}` : ''}`;
}

/** The stream's last failure, as its worker recorded it, with when. */
export function LastError({ stream }: { stream: LogStream }) {
  if (stream.last_error === null) return <span class="muted">None</span>;
  return (
    <>
      <span class="value stream-error">{stream.last_error}</span>
      {stream.last_error_at ? <span class="muted"> ({when(stream.last_error_at)})</span> : null}
    </>
  );
}
