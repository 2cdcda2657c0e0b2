import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { allConnections, allRoles } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { Directory, DirectoryWithToken } from '../api/types.js';
import { ConfirmPanel, DeletePanel } from '../components/confirm-panel.js';
import { DetailPage } from '../components/detail-page.js';
import { Fact } from '../components/fact.js';
import { when } from '../format.js';
import { loadAll } from '../load-all.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { AdoptUser } from './directory-adopt.js';
import { BaseUrl, ConnectionName, directoryNews, TokenOnce } from './directory-bits.js';
import { DirectoryGroups } from './directory-groups.js';

type Org = OrgScreenProps['org'];

/** One directory: what to give the provider, its facts, a new token, its groups' roles, adoption, deletion. */
export function DirectoryPage({ org, id }: { org: Org; id: string }) {
  const listHref = orgHref(org.slug, 'directories');
  const loaded = useLoad(
    () =>
      loadAll({
        directory: body(api.GET('/organizations/{org}/directories/{id}', oneIn(org.slug, id))),
        connections: allConnections(org.slug),
        roles: allRoles(org.slug),
      }),
    [org.slug, id],
  );
  return (
    <DetailPage
      loaded={loaded}
      href={listHref}
      back="All directories"
      name={(data) => data.directory.name}
      fallback="SCIM directory"
      what="the directory"
    >
      {({ directory, connections, roles }) => (
        <>
          <section class="panel" aria-labelledby="for-provider">
            <h2 id="for-provider">For your identity provider</h2>
            <p>Turn on SCIM provisioning in the provider’s app for {org.name} with this URL and the token.</p>
            <BaseUrl directory={directory} />
          </section>
          <dl class="facts panel">
            <Fact term="Id" code={directory.id} />
            <Fact term="Connection">
              <ConnectionName slug={org.slug} id={directory.connection} connections={connections} />
            </Fact>
            <Fact term="Bearer token">Stored as a hash; never shown again. Rotate it for a new one.</Fact>
            <Fact term="Created">{when(directory.created_at)}</Fact>
            <Fact term="Changed">{when(directory.updated_at)}</Fact>
          </dl>
          <RotateToken org={org} directory={directory} onRotated={loaded.reload} />
          <DirectoryGroups org={org} directory={directory} roles={roles} />
          <AdoptUser org={org} directory={directory} />
          <DeletePanel
            id="delete-directory"
            title="Delete directory"
            question={`Delete the directory ${directory.name} for good?`}
            remove={() => api.DELETE('/organizations/{org}/directories/{id}', oneIn(org.slug, directory.id))}
            news={{ to: directoryNews, line: `Directory ${directory.name} deleted.` }}
            href={listHref}
          >
            <p>
              Its token stops working at once. The users it created stay users of the organization, signed in
              as before; nothing manages them any more. This cannot be undone.
            </p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

function RotateToken({
  org,
  directory,
  onRotated,
}: {
  org: Org;
  directory: Directory;
  onRotated: () => void;
}) {
  const [rotated, setRotated] = useState<DirectoryWithToken | null>(null);
  return (
    <>
      {rotated ? (
        <TokenOnce
          directory={rotated}
          what="New token made: the old one no longer works. Put this one in your identity provider."
          onDismiss={() => setRotated(null)}
        />
      ) : null}
      <ConfirmPanel
        id="rotate-token"
        title="Rotate token"
        button="Rotate token"
        confirmLabel="Yes, rotate it"
        question="Give this directory a new token? The old one stops working at once."
        onConfirm={async () => {
          setRotated(
            await body(
              api.POST('/organizations/{org}/directories/{id}/token', oneIn(org.slug, directory.id)),
            ),
          );
          onRotated();
        }}
      >
        <p>For a token that leaked or was lost. Provisioning stops until the provider has the new token.</p>
      </ConfirmPanel>
    </>
  );
}
