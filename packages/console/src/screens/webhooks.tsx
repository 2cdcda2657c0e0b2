import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { listPage } from '../api/lists.js';
import type { CreatedWebhook } from '../api/types.js';
import { DataTable } from '../components/data-table.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { OwnersOnlyScreen, PageHead } from '../components/page-head.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { usePage } from '../use-page.js';
import { ActiveBadge, OwnersOnly, URL_HINT } from './webhook-bits.js';
import { PatternEditor, PatternList, usePatterns } from './webhook-patterns.js';

export { WebhookDetail } from './webhook-detail.js';

/** The org's webhooks (owners only): the list, a new one, and its signing secret shown once. */
export function Webhooks({ org }: OrgScreenProps) {
  if (!canWrite(org)) {
    return (
      <OwnersOnlyScreen title="Webhooks">
        <OwnersOnly />
      </OwnersOnlyScreen>
    );
  }
  return <OwnerList org={org} />;
}

function OwnerList({ org }: OrgScreenProps) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const { page, go } = usePage();
  const loaded = useLoad(
    () =>
      listPage(
        api.GET('/organizations/{org}/webhooks', { params: { path: { org: org.slug }, query: { page } } }),
      ),
    [org.slug, page],
  );
  return (
    <>
      <PageHead
        title="Webhooks"
        action={
          creating
            ? null
            : {
                label: 'New webhook',
                onClick: () => {
                  setCreated(null);
                  setCreating(true);
                },
              }
        }
      />
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
      <ListView
        loaded={loaded}
        what="webhooks"
        pager="Webhook pages"
        onGo={go}
        empty={
          <EmptyState title="No webhooks yet">
            <p>
              Choose <strong>New webhook</strong> to have Tessera send events such as{' '}
              <code>user.created</code> to your HTTPS endpoint.
            </p>
          </EmptyState>
        }
      >
        {(webhooks) => (
          <DataTable
            class="webhook-list"
            rows={webhooks}
            rowKey={(w) => w.id}
            columns={[
              {
                label: 'URL',
                cell: (w) => (
                  <Link href={orgHref(org.slug, 'webhooks', w.id)} class="mono">
                    {w.url}
                  </Link>
                ),
              },
              { label: 'Events', cell: (w) => <PatternList patterns={w.events} /> },
              { label: 'Status', cell: (w) => <ActiveBadge active={w.active} /> },
              { label: 'Created', cell: (w) => when(w.created_at) },
            ]}
          />
        )}
      </ListView>
    </>
  );
}

function NewWebhook({
  org,
  onCancel,
  onCreated,
}: OrgScreenProps & { onCancel: () => void; onCreated: (webhook: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('https://');
  const patterns = usePatterns([]);
  const { error, busy, run } = useAction();
  return (
    <section class="panel" aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New webhook</h2>
      <ErrorNotice error={error} />
      <Form
        label="New webhook"
        onSubmit={() =>
          run(async () =>
            onCreated(
              await body(
                api.POST('/organizations/{org}/webhooks', {
                  params: { path: { org: org.slug } },
                  body: { url: url.trim(), events: patterns.all() },
                }),
              ),
            ),
          )
        }
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
