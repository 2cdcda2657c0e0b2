import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { allConnections, listPage } from '../api/lists.js';
import type { DirectoryWithToken } from '../api/types.js';
import { DataTable } from '../components/data-table.js';
import { Form, SelectField, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { OwnersOnly, PageHead } from '../components/page-head.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { useAddressPage } from '../use-page.js';
import { ConnectionName, DirectoriesOwnersOnly, directoryNews, TokenOnce } from './directory-bits.js';
import { DirectoryPage } from './directory-page.js';

type Org = OrgScreenProps['org'];
type Named = { id: string; name: string };

const listHref = (slug: string) => orgHref(slug, 'directories');

/** The org's SCIM directories (owners only, like the API): the list, a new one, its token shown once. */
export function Directories({ org }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="SCIM directories"
      notice={<DirectoriesOwnersOnly />}
      screen={() => <DirectoryList org={org} />}
    />
  );
}

/** One directory's page (owners only). */
export function DirectoryDetail({ org, id }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="SCIM directory"
      notice={<DirectoriesOwnersOnly />}
      screen={() => <DirectoryPage org={org} id={id ?? ''} />}
    />
  );
}

function DirectoryList({ org }: { org: Org }) {
  const { page, go } = useAddressPage(listHref(org.slug));
  const [news] = useState(directoryNews.take);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<DirectoryWithToken | null>(null);
  const loaded = useLoad(async () => {
    const [list, connections] = await Promise.all([
      listPage(
        api.GET('/organizations/{org}/directories', { params: { path: { org: org.slug }, query: { page } } }),
      ),
      allConnections(org.slug),
    ]);
    return { ...list, connections };
  }, [org.slug, page]);
  const connections = loaded.state === 'ok' ? loaded.data.connections : [];
  return (
    <>
      <PageHead
        title="SCIM directories"
        action={
          creating
            ? null
            : {
                label: 'New directory',
                onClick: () => {
                  setCreated(null);
                  setCreating(true);
                },
              }
        }
      />
      <p class="muted">
        Your identity provider (Okta, Microsoft Entra ID, …) creates, updates and removes {org.name}’s users
        through SCIM 2.0: a person deactivated there is signed out everywhere here at once.
      </p>
      {news ? <Done>{news}</Done> : null}
      {creating ? (
        <NewDirectory
          org={org}
          connections={connections}
          onCancel={() => setCreating(false)}
          onCreated={(directory) => {
            setCreating(false);
            setCreated(directory);
            loaded.reload();
          }}
        />
      ) : null}
      {created ? (
        <TokenOnce
          directory={created}
          what={`Directory ${created.name} created. Give your identity provider the base URL and this token.`}
          onDismiss={() => setCreated(null)}
        />
      ) : null}
      <ListView
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
      >
        {(directories) => (
          <DataTable
            caption="SCIM directories"
            rows={directories}
            rowKey={(d) => d.id}
            columns={[
              {
                label: 'Name',
                cell: (d) => <Link href={orgHref(org.slug, 'directories', d.id)}>{d.name}</Link>,
              },
              {
                label: 'Connection',
                cell: (d) => <ConnectionName slug={org.slug} id={d.connection} connections={connections} />,
              },
              { label: 'Created', cell: (d) => when(d.created_at) },
            ]}
          />
        )}
      </ListView>
    </>
  );
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
  const [name, setName] = useState('');
  const [connection, setConnection] = useState('');
  const { error, busy, run } = useAction();
  const options = [['', 'None'] as const, ...connections.map((c) => [c.id, c.name] as const)];
  return (
    <section class="panel" aria-labelledby="new-directory-title">
      <h2 id="new-directory-title">New directory</h2>
      <ErrorNotice error={error} />
      <Form
        label="New directory"
        onSubmit={() =>
          run(async () =>
            onCreated(
              await body(
                api.POST('/organizations/{org}/directories', {
                  params: { path: { org: org.slug } },
                  body: { name: name.trim(), connection: connection === '' ? null : connection },
                }),
              ),
            ),
          )
        }
      >
        <TextField
          label="Name"
          name="name"
          value={name}
          onInput={setName}
          required
          hint="For you only, like “Okta” or “Entra ID”; up to 100 characters."
        />
        <SelectField
          label="Connection"
          name="connection"
          value={connection}
          options={options}
          onChange={setConnection}
          hint="With a connection, the directory creates users only at addresses in its email domains, and they sign in through it. None: at any address."
        />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create directory
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </section>
  );
}
