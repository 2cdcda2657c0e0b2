import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { allConnections, allRoles } from '../api/lists.js';
import type { Directory, DirectoryWithToken } from '../api/types.js';
import { ConfirmPanel } from '../components/confirm-panel.js';
import { Link } from '../components/link.js';
import { LoadNotice } from '../components/notices.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { AdoptUser } from './directory-adopt.js';
import { BaseUrl, ConnectionName, directoryNews, TokenOnce, thisDirectory } from './directory-bits.js';
import { DirectoryGroups } from './directory-groups.js';

type Org = OrgScreenProps['org'];

/** One directory: what to give the provider, its facts, a new token, its groups' roles, adoption, deletion. */
export function DirectoryPage({ org, id }: { org: Org; id: string }) {
  const loaded = useLoad(async () => {
    const [directory, connections, roles] = await Promise.all([
      body(api.GET('/organizations/{org}/directories/{id}', thisDirectory(org.slug, id))),
      allConnections(org.slug),
      allRoles(org.slug),
    ]);
    return { directory, connections, roles };
  }, [org.slug, id]);
  const directory = loaded.state === 'ok' ? loaded.data.directory : null;
  return (
    <>
      <p class="crumbs">
        <Link href={orgHref(org.slug, 'directories')}>← All directories</Link>
      </p>
      <h1>{directory ? directory.name : 'SCIM directory'}</h1>
      <LoadNotice loaded={loaded} what="the directory" />
      {loaded.state === 'ok' && directory ? (
        <>
          <section class="panel" aria-labelledby="for-provider">
            <h2 id="for-provider">For your identity provider</h2>
            <p>Turn on SCIM provisioning in the provider’s app for {org.name} with this URL and the token.</p>
            <BaseUrl directory={directory} />
          </section>
          <dl class="facts panel">
            <dt>Id</dt>
            <dd>
              <code>{directory.id}</code>
            </dd>
            <dt>Connection</dt>
            <dd>
              <ConnectionName
                slug={org.slug}
                id={directory.connection}
                connections={loaded.data.connections}
              />
            </dd>
            <dt>Bearer token</dt>
            <dd>Stored as a hash; never shown again. Rotate it for a new one.</dd>
            <dt>Created</dt>
            <dd>{when(directory.created_at)}</dd>
            <dt>Changed</dt>
            <dd>{when(directory.updated_at)}</dd>
          </dl>
          <RotateToken org={org} directory={directory} onRotated={loaded.reload} />
          <DirectoryGroups org={org} directory={directory} roles={loaded.data.roles} />
          <AdoptUser org={org} directory={directory} />
          <DeleteDirectory org={org} directory={directory} />
        </>
      ) : null}
    </>
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
              api.POST('/organizations/{org}/directories/{id}/token', thisDirectory(org.slug, directory.id)),
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

function DeleteDirectory({ org, directory }: { org: Org; directory: Directory }) {
  return (
    <ConfirmPanel
      id="delete-directory"
      title="Delete directory"
      question={`Delete the directory ${directory.name} for good?`}
      onConfirm={async () => {
        await ok(api.DELETE('/organizations/{org}/directories/{id}', thisDirectory(org.slug, directory.id)));
        directoryNews.set(`Directory ${directory.name} deleted.`);
        navigate(orgHref(org.slug, 'directories'));
      }}
    >
      <p>
        Its token stops working at once. The users it created stay users of the organization, signed in as
        before; nothing manages them any more. This cannot be undone.
      </p>
    </ConfirmPanel>
  );
}
