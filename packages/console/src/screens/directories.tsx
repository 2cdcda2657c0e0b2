import { api, body } from '../api/client.js';
import { allConnections, directoriesPage, listPageWith } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import type { DirectoryWithToken } from '../api/types.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { FormPanel } from '../components/form-panel.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { EmptyState } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useCreating } from '../use-creating.js';
import { useDraft } from '../use-draft.js';
import { useLoad } from '../use-load.js';
import { useAddressPage } from '../use-page.js';
import { ConnectionName, DirectoriesOwnersOnly, directoryNews, TokenOnce } from './directory-bits.js';
import { DirectoryPage } from './directory-page.js';

type Org = OrgScreenProps['org'];
type Named = { id: string; name: string };

const listHref = (slug: string) => orgHref(slug, 'directories');

/** The org's SCIM directories (owners only, like the API): the list, a new one, its token shown once. */
export const Directories = forOwners('SCIM directories', DirectoriesOwnersOnly, DirectoryList);

/** One directory's page (owners only). */
export const DirectoryDetail = forOwners('SCIM directory', DirectoriesOwnersOnly, DirectoryPage);

function DirectoryList({ org }: { org: Org }) {
  const { page, go } = useAddressPage(listHref(org.slug));
  const create = useCreating<DirectoryWithToken>('New directory');
  const loaded = useLoad(
    () => listPageWith(directoriesPage(org.slug, { page }), { connections: allConnections(org.slug) }),
    [org.slug, page],
  );
  const connections = loaded.state === 'ok' ? loaded.data.connections : [];
  return (
    <ListScreen
      title="SCIM directories"
      action={create.action}
      news={directoryNews}
      intro={
        <>
          Your identity provider (Okta, Microsoft Entra ID, …) creates, updates and removes {org.name}’s users
          through SCIM 2.0: a person deactivated there is signed out everywhere here at once.
        </>
      }
    >
      {create.creating ? (
        <NewDirectory
          org={org}
          connections={connections}
          onCancel={create.cancel}
          onCreated={(directory) => {
            create.done(directory);
            loaded.reload();
          }}
        />
      ) : null}
      {create.created ? (
        <TokenOnce
          directory={create.created}
          what={`Directory ${create.created.name} created. Give your identity provider the base URL and this token.`}
          onDismiss={create.dismiss}
        />
      ) : null}
      <ListTable
        loaded={loaded}
        what="directories"
        pager="Pages of directories"
        onGo={go}
        empty={
          <EmptyState title="No directories yet">
            <p>
              Choose <strong>New directory</strong> to get a SCIM base URL and token for Okta or Microsoft
              Entra ID provisioning.
            </p>
          </EmptyState>
        }
        caption="SCIM directories"
        rowKey={(d) => d.id}
        columns={[
          { label: 'Name', cell: (d) => <Link href={orgHref(org.slug, 'directories', d.id)}>{d.name}</Link> },
          {
            label: 'Connection',
            cell: (d) => <ConnectionName slug={org.slug} id={d.connection} connections={connections} />,
          },
          { label: 'Created', cell: (d) => when(d.created_at) },
        ]}
      />
    </ListScreen>
  );
}

interface DirectoryDraft {
  name: string;
  /** The connection's id; empty: none. */
  connection: string;
}

function NewDirectory({
  org,
  connections,
  onCancel,
  onCreated,
}: {
  org: Org;
  connections: readonly Named[];
  onCancel: () => void;
  onCreated: (directory: DirectoryWithToken) => void;
}) {
  const [draft, set] = useDraft<DirectoryDraft>({ name: '', connection: '' });
  const action = useAction();
  const fields: FieldDecl<DirectoryDraft>[] = [
    {
      key: 'name',
      label: 'Name',
      required: true,
      hint: 'For you only, like “Okta” or “Entra ID”; up to 100 characters.',
    },
    {
      kind: 'select',
      key: 'connection',
      label: 'Connection',
      options: [['', 'None'], ...connections.map((c) => [c.id, c.name] as const)],
      hint: 'With a connection, the directory creates users only at addresses in its email domains, and they sign in through it. None: at any address.',
    },
  ];
  return (
    <FormPanel
      id="new-directory-title"
      title="New directory"
      submit="Create directory"
      state={action}
      onCancel={onCancel}
      onSubmit={() =>
        action.run(async () =>
          onCreated(
            await body(
              api.POST('/organizations/{org}/directories', {
                ...inOrg(org.slug),
                body: {
                  name: draft.name.trim(),
                  connection: draft.connection === '' ? null : draft.connection,
                },
              }),
            ),
          ),
        )
      }
    >
      <DraftFields draft={draft} set={set} fields={fields} />
    </FormPanel>
  );
}
