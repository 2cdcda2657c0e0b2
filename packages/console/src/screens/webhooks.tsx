import { useState } from 'preact/hooks';
import { get, orgPath, post } from '../api/client.js';
import type { CreatedWebhook, Webhook } from '../api/types.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { ActiveBadge, OwnersOnly, URL_HINT } from './webhook-bits.js';
import { PatternEditor, PatternList, usePatterns } from './webhook-patterns.js';

export { WebhookDetail } from './webhook-detail.js';

/** The org's webhooks (owners only): the list, a new one, and its signing secret shown once. */
export function Webhooks({ org }: OrgScreenProps) {
  if (!canWrite(org)) {
    return (
      <>
        <h1>Webhooks</h1>
        <OwnersOnly />
      </>
    );
  }
  return <OwnerList org={org} />;
}

function OwnerList({ org }: OrgScreenProps) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [path, setPath] = useState(orgPath(org.slug, 'webhooks'));
  const loaded = useLoad(() => get<Webhook[]>(path), [path]);
  return (
    <>
      <div class="page-head">
        <h1>Webhooks</h1>
        {creating ? null : (
          <button
            type="button"
            onClick={() => {
              setCreated(null);
              setCreating(true);
            }}
          >
            New webhook
          </button>
        )}
      </div>
      <p class="muted">
        Tessera POSTs each event your patterns match to your HTTPS endpoint, signed, and retries for about a
        day when it fails.
      </p>
      {creating ? (
        <NewWebhook
          org={org}
          onCancel={() => setCreating(false)}
          onCreated={(webhook) => {
            setCreating(false);
            setCreated(webhook);
            loaded.reload();
          }}
        />
      ) : null}
      {created?.secret ? (
        <CreatedSecret org={org} webhook={created} onDismiss={() => setCreated(null)} />
      ) : null}
      {loaded.state === 'loading' ? <Loading what="webhooks" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' ? (
        loaded.data.data.length === 0 ? (
          <EmptyState title="No webhooks yet">
            <p>
              Choose <strong>New webhook</strong> to have Tessera send events such as{' '}
              <code>user.created</code> to your HTTPS endpoint.
            </p>
          </EmptyState>
        ) : (
          <>
            <WebhookTable org={org} webhooks={loaded.data.data} />
            <Pager links={loaded.data.links} onGo={setPath} label="Webhook pages" />
          </>
        )
      ) : null}
    </>
  );
}

function WebhookTable({ org, webhooks }: OrgScreenProps & { webhooks: Webhook[] }) {
  return (
    <div class="table-wrap">
      <table class="webhook-list">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((w) => (
            <tr key={w.id}>
              <td>
                <Link href={orgHref(org.slug, 'webhooks', w.id)} class="mono">
                  {w.url}
                </Link>
              </td>
              <td>
                <PatternList patterns={w.events} />
              </td>
              <td>
                <ActiveBadge active={w.active} />
              </td>
              <td>{when(w.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function NewWebhook({
  org,
  onCancel,
  onCreated,
}: OrgScreenProps & { onCancel: () => void; onCreated: (webhook: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('https://');
  const patterns = usePatterns([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="panel" aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New webhook</h2>
      <ErrorNotice error={error} />
      <Form
        label="New webhook"
        onSubmit={async () => {
          setBusy(true);
          setError(null);
          try {
            const { data } = await post<CreatedWebhook>(orgPath(org.slug, 'webhooks'), {
              url: url.trim(),
              events: patterns.all(),
            });
            onCreated(data);
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        <TextField label="URL" name="url" type="url" value={url} onInput={setUrl} required hint={URL_HINT} />
        <PatternEditor state={patterns} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create webhook
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The new webhook's signing secret, once, and what it is for. */
function CreatedSecret({
  org,
  webhook,
  onDismiss,
}: OrgScreenProps & { webhook: CreatedWebhook; onDismiss: () => void }) {
  return (
    <>
      <Done>
        Webhook created for <code>{webhook.url}</code>.{' '}
        <Link href={orgHref(org.slug, 'webhooks', webhook.id)}>Open it</Link> to see its deliveries.
      </Done>
      <p class="notice info">
        Every delivery is signed the Standard Webhooks way (<code>webhook-id</code>,{' '}
        <code>webhook-timestamp</code> and <code>webhook-signature</code> headers): your receiver verifies it
        with this secret, for example with a Standard Webhooks library.
      </p>
      <SecretOnce label="Signing secret" value={webhook.secret} onDismiss={onDismiss} />
    </>
  );
}
