import { api, body } from '../api/client.js';
import { listPageWith } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import type { Client } from '../api/types.js';
import { Chips } from '../components/data-table.js';
import { FormPanel } from '../components/form-panel.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { EmptyState } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useCreating } from '../use-creating.js';
import { useDraft } from '../use-draft.js';
import { useLoad } from '../use-load.js';
import {
  confidentialClients,
  emptyTrustedApp,
  ID_JAG_LINE,
  TrustedAppFields,
  TrustedAppsOwnersOnly,
  trustedAppBody,
  trustedAppNews,
} from './trusted-app-bits.js';
import { TrustedAppPage } from './trusted-app-page.js';

type Org = OrgScreenProps['org'];

/** The org's trusted apps (owners only, like the API): the list and a new one. */
export const TrustedApps = forOwners('Trusted apps', TrustedAppsOwnersOnly, TrustedAppList);

/** One trusted app's page (owners only). */
export const TrustedAppDetail = forOwners('Trusted app', TrustedAppsOwnersOnly, TrustedAppPage);

function TrustedAppList({ org }: { org: Org }) {
  const create = useCreating<never>('New trusted app');
  const loaded = useLoad(
    () =>
      listPageWith(api.GET('/organizations/{org}/trusted-apps', inOrg(org.slug)), {
        clients: confidentialClients(org.slug),
      }),
    [org.slug],
  );
  const clientName = (id: string) =>
    (loaded.state === 'ok' ? loaded.data.clients.find((c) => c.client_id === id)?.client_name : null) ?? id;
  return (
    <ListScreen title="Trusted apps" action={create.action} news={trustedAppNews} intro={ID_JAG_LINE}>
      {create.creating && loaded.state === 'ok' ? (
        <NewTrustedApp org={org} clients={loaded.data.clients} onCancel={create.cancel} />
      ) : null}
      <ListTable
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
        class="trusted-app-list"
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
    </ListScreen>
  );
}

function NewTrustedApp({ org, clients, onCancel }: { org: Org; clients: Client[]; onCancel: () => void }) {
  const [draft, set] = useDraft(emptyTrustedApp);
  const action = useAction();
  return (
    <FormPanel
      id="new-trusted-app-title"
      title="New trusted app"
      submit="Create trusted app"
      state={action}
      onCancel={onCancel}
      errorBelow
      onSubmit={() =>
        action.run(async () => {
          const app = await body(
            api.POST('/organizations/{org}/trusted-apps', {
              ...inOrg(org.slug),
              body: trustedAppBody(draft),
            }),
          );
          navigate(orgHref(org.slug, 'trusted-apps', app.id));
        })
      }
    >
      <TrustedAppFields slug={org.slug} draft={draft} set={set} clients={clients} />
    </FormPanel>
  );
}
