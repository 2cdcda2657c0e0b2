import { useState } from 'preact/hooks';
import { api, body, ok, type Pending } from '../api/client.js';
import { oneIn } from '../api/params.js';
import type { Delivery, DeliveryAttempt, Webhook } from '../api/types.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { useLoad } from '../use-load.js';

const STATUS: Record<Delivery['status'], { label: string; badge: string }> = {
  delivered: { label: 'Delivered', badge: 'badge ok' },
  pending: { label: 'Pending', badge: 'badge info' },
  failed: { label: 'Failed', badge: 'badge bad' },
  skipped: { label: 'Skipped', badge: 'badge' },
};

const COLUMNS = 8;

/**
 * A webhook's delivery log, newest first: each delivery's outcome, its last attempt, its attempt
 * history, and Retry (sends the event again now); Send test event queues a `webhook.test` for this
 * webhook only. Refresh reads the log, and the webhook, again.
 */
export function DeliveryLog({
  org,
  webhook,
  onRefresh,
}: OrgScreenProps & { webhook: Webhook; onRefresh: () => void }) {
  const loaded = useLoad(
    () => body(api.GET('/organizations/{org}/webhooks/{id}/deliveries', oneIn(org.slug, webhook.id))),
    [org.slug, webhook.id],
  );
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  /**
   * Sends one request of the log, its button (`which`) busy meanwhile; once it went through, says `news`
   * and reads the log again.
   */
  const act = async (which: string, send: () => Pending, news: string) => {
    setBusy(which);
    setError(null);
    setDone(null);
    try {
      await ok(send());
      setDone(news);
      loaded.reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  const sendTest = () =>
    act(
      'test',
      () => api.POST('/organizations/{org}/webhooks/{id}/test', oneIn(org.slug, webhook.id)),
      'A webhook.test event is on its way to this webhook only. Refresh to see how it went.',
    );

  const retry = (d: Delivery) =>
    act(
      d.id,
      () =>
        api.POST('/organizations/{org}/webhooks/{id}/deliveries/{deliveryId}/retry', {
          params: { path: { org: org.slug, id: webhook.id, deliveryId: d.id } },
        }),
      `${d.type} is being sent again. Refresh to see how it went.`,
    );

  return (
    <section aria-labelledby="delivery-log-title">
      <div class="log-head">
        <h2 id="delivery-log-title">Delivery log</h2>
        <div class="log-actions">
          <button
            type="button"
            class="secondary"
            disabled={busy === 'test' || !webhook.active}
            onClick={sendTest}
          >
            Send test event
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setError(null);
              setDone(null);
              loaded.reload();
              onRefresh();
            }}
          >
            Refresh
          </button>
        </div>
      </div>
      <p class="muted">
        The newest 100 deliveries, newest first. Failed attempts are retried on their own, for about a day;
        Retry sends one again now. Send test event sends a signed <code>webhook.test</code> event to this
        webhook only; it changes nothing.
        {webhook.active ? null : ' This webhook is paused: resume it before retrying or testing.'}
      </p>
      <ErrorNotice error={error} />
      {done ? <Done>{done}</Done> : null}
      {loaded.state === 'loading' ? <Loading what="deliveries" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.length === 0 ? (
        <EmptyState title="No deliveries yet">
          <p>A delivery appears here as soon as an event matches this webhook's patterns.</p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.length > 0 ? (
        <div class="table-wrap log-wrap">
          <table class="delivery-log">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">HTTP status</th>
                <th scope="col">Duration</th>
                <th scope="col">Error</th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            {loaded.data.map((d) => (
              <DeliveryRows key={d.id} delivery={d} busy={busy === d.id} onRetry={() => retry(d)} />
            ))}
          </table>
        </div>
      ) : null}
    </section>
  );
}

function DeliveryRows({
  delivery: d,
  busy,
  onRetry,
}: {
  delivery: Delivery;
  busy: boolean;
  onRetry: () => void;
}) {
  const last = d.attempts.at(-1);
  const status = STATUS[d.status];
  return (
    <tbody>
      <tr>
        <th scope="row">
          <code>{d.type}</code>
          <span class="log-when">{when(d.created_at)}</span>
        </th>
        <td>
          <span class={status.badge}>{status.label}</span>
        </td>
        <td>{d.attempts.length}</td>
        <td>{last ? (last.status_code ?? 'none') : '—'}</td>
        <td>{last ? `${last.duration_ms} ms` : '—'}</td>
        <td>{last?.error ?? '—'}</td>
        <td>{d.status === 'pending' ? when(d.next_attempt_at) : '—'}</td>
        <td>
          <button type="button" class="secondary" disabled={busy} onClick={onRetry}>
            Retry
            <span class="visually-hidden">
              {' '}
              {d.type} of {when(d.created_at)}
            </span>
          </button>
        </td>
      </tr>
      <tr class="log-history">
        <td colSpan={COLUMNS}>
          <details>
            <summary>
              Attempt history ({d.attempts.length})<span class="visually-hidden"> of {d.type}</span>
            </summary>
            <p class="muted">
              Event <code>{d.event_id}</code> (sent as <code>webhook-id</code>), queued {when(d.created_at)}.
            </p>
            {d.attempts.length === 0 ? (
              <p>No attempt yet.</p>
            ) : (
              <ol class="attempts">
                {d.attempts.map((a) => (
                  <li key={a.at}>
                    <AttemptLine attempt={a} />
                  </li>
                ))}
              </ol>
            )}
          </details>
        </td>
      </tr>
    </tbody>
  );
}

function AttemptLine({ attempt: a }: { attempt: DeliveryAttempt }) {
  return (
    <>
      {when(a.at)}: {a.status_code === null ? 'no response' : `HTTP status ${a.status_code}`} in{' '}
      {a.duration_ms} ms
      {a.error && a.error !== `HTTP ${a.status_code}` ? (
        <span class="attempt-error"> — {a.error}</span>
      ) : null}
    </>
  );
}
