import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { listPage } from '../api/lists.js';
import type { Client } from '../api/types.js';
import { Chips, DataTable } from '../components/data-table.js';
import { Form } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { OwnersOnly, PageHead } from '../components/page-head.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import {
  confidentialClients,
  emptyTrustedApp,
  ID_JAG_LINE,
  type TrustedAppDraft,
  TrustedAppFields,
  TrustedAppsOwnersOnly,
  trustedAppBody,
  trustedAppNews,
} from './trusted-app-bits.js';
import { TrustedAppPage } from './trusted-app-page.js';

type Org = OrgScreenProps['org'];

/** The org's trusted apps (owners only, like the API): the list and a new one. */
export function TrustedApps({ org }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="Trusted apps"
      notice={<TrustedAppsOwnersOnly />}
      screen={() => <TrustedAppList org={org} />}
    />
  );
}

/** One trusted app's page (owners only). */
export function TrustedAppDetail({ org, id }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="Trusted app"
      notice={<TrustedAppsOwnersOnly />}
      screen={() => <TrustedAppPage org={org} id={id ?? ''} />}
    />
  );
}

function TrustedAppList({ org }: { org: Org }) {
  const [news] = useState(trustedAppNews.take);
  const [creating, setCreating] = useState(false);
  const loaded = useLoad(async () => {
    const [list, clients] = await Promise.all([
      listPage(api.GET('/organizations/{org}/trusted-apps', { params: { path: { org: org.slug } } })),
      confidentialClients(org.slug),
    ]);
    return { ...list, clients };
  }, [org.slug]);
  const clientName = (id: string) =>
    (loaded.state === 'ok' ? loaded.data.clients.find((c) => c.client_id === id)?.client_name : null) ?? id;
  return (
    <>
      <PageHead
        title="Trusted apps"
        action={creating ? null : { label: 'New trusted app', onClick: () => setCreating(true) }}
      />
      <p class="muted">{ID_JAG_LINE}</p>
      {news ? <Done>{news}</Done> : null}
      {creating && loaded.state === 'ok' ? (
        <NewTrustedApp org={org} clients={loaded.data.clients} onCancel={() => setCreating(false)} />
      ) : null}
      <ListView
        loaded={loaded}
        what="trusted apps"
        pager="Trusted app pages"
        onGo={() => {}}
        empty={
          <EmptyState title="No trusted apps yet">
            <p>
              Choose <strong>New trusted app</strong> to let some of your confidential clients get ID-JAGs for
              another authorization server.
            </p>
          </EmptyState>
        }
      >
        {(apps) => (
          <DataTable
            class="trusted-app-list"
            rows={apps}
            rowKey={(a) => a.id}
            columns={[
              {
                label: 'Name',
                cell: (a) => <Link href={orgHref(org.slug, 'trusted-apps', a.id)}>{a.name}</Link>,
              },
              { label: 'Audience', cell: (a) => <code class="url-wrap">{a.audience}</code> },
              { label: 'Clients', cell: (a) => a.client_ids.map(clientName).join(', ') },
              { label: 'Scopes', cell: (a) => <Chips values={a.scopes} /> },
            ]}
          />
        )}
      </ListView>
    </>
  );
}

function NewTrustedApp({ org, clients, onCancel }: { org: Org; clients: Client[]; onCancel: () => void }) {
  const [draft, setDraft] = useState(emptyTrustedApp);
  const set = (change: Partial<TrustedAppDraft>) => setDraft((d) => ({ ...d, ...change }));
  const { error, busy, run } = useAction();
  return (
    <section class="panel" aria-labelledby="new-trusted-app-title">
      <h2 id="new-trusted-app-title">New trusted app</h2>
      <Form
        label="New trusted app"
        onSubmit={() =>
          run(async () => {
            const app = await body(
              api.POST('/organizations/{org}/trusted-apps', {
                params: { path: { org: org.slug } },
                body: trustedAppBody(draft),
              }),
            );
            navigate(orgHref(org.slug, 'trusted-apps', app.id));
          })
        }
      >
        <TrustedAppFields slug={org.slug} draft={draft} set={set} clients={clients} />
        <ErrorNotice error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create trusted app
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </section>
  );
}
