import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { webhooksPage } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import type { CreatedWebhook } from '../api/types.js';
import { TextField } from '../components/fields.js';
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
import { useListPage } from '../use-list-page.js';
import { usePage } from '../use-page.js';
import { ActiveBadge, OwnersOnly, URL_HINT } from './webhook-bits.js';
import { PatternEditor, PatternList, usePatterns } from './webhook-patterns.js';

export { WebhookDetail } from './webhook-detail.js';

/** The org's webhooks (owners only): the list, a new one, and its signing secret shown once. */
export const Webhooks = forOwners('Webhooks', OwnersOnly, OwnerList);

function OwnerList({ org }: OrgScreenProps) {
  const create = useCreating<CreatedWebhook>('New webhook');
  const { page, go } = usePage();
  const loaded = useListPage(org.slug, page, webhooksPage);
  return (
    <ListScreen
      title="Webhooks"
      action={create.action}
      intro={
        <>
          Tessera POSTs each event your patterns match to your HTTPS endpoint, signed, and retries for about a
          day when it fails.
        </>
      }
    >
      {create.creating ? (
        <NewWebhook
          org={org}
          onCancel={create.cancel}
          onCreated={(webhook) => {
            create.done(webhook);
            loaded.reload();
          }}
        />
      ) : null}
      {create.created?.secret ? (
        <CreatedSecret org={org} webhook={create.created} onDismiss={create.dismiss} />
      ) : null}
      <ListTable
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
        class="webhook-list"
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
    </ListScreen>
  );
}

function NewWebhook({
  org,
  onCancel,
  onCreated,
}: OrgScreenProps & { onCancel: () => void; onCreated: (webhook: CreatedWebhook) => void }) {
  const [url, setUrl] = useState('https://');
  const patterns = usePatterns([]);
  const action = useAction();
  return (
    <FormPanel
      id="new-webhook-title"
      title="New webhook"
      submit="Create webhook"
      state={action}
      onCancel={onCancel}
      onSubmit={() =>
        action.run(async () =>
          onCreated(
            await body(
              api.POST('/organizations/{org}/webhooks', {
                ...inOrg(org.slug),
                body: { url: url.trim(), events: patterns.all() },
              }),
            ),
          ),
        )
      }
    >
      <TextField label="URL" name="url" type="url" value={url} onInput={setUrl} required hint={URL_HINT} />
      <PatternEditor state={patterns} />
    </FormPanel>
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
