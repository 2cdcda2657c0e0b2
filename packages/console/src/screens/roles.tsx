import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { allResources, listPage } from '../api/lists.js';
import { DataTable } from '../components/data-table.js';
import { Link } from '../components/link.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState } from '../components/notices.js';
import { PageHead } from '../components/page-head.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { useAddressPage } from '../use-page.js';
import { PermissionList } from './permission-picker.js';
import { NewRole, RolePage, RolesOwnersOnly, roleNews } from './role-detail.js';

const listHref = (slug: string) => orgHref(slug, 'roles');

/** The roles of the org's end users (owners only), a page at a time; the page is in the address. */
export function Roles({ org }: OrgScreenProps) {
  return canWrite(org) ? <RoleList org={org} /> : <RolesOwnersOnly />;
}

function RoleList({ org }: { org: OrgScreenProps['org'] }) {
  const { page, go } = useAddressPage(listHref(org.slug));
  const [news] = useState(roleNews.take);
  const loaded = useLoad(async () => {
    const [list, resources] = await Promise.all([
      listPage(
        api.GET('/organizations/{org}/roles', { params: { path: { org: org.slug }, query: { page } } }),
      ),
      allResources(org.slug),
    ]);
    return { ...list, resources };
  }, [org.slug, page]);
  const newHref = orgHref(org.slug, 'roles', 'new');
  return (
    <>
      <PageHead title="Roles" action={{ href: newHref, label: 'New role' }} />
      <p class="muted">
        Roles give this organization’s users scopes of its API resources. A token asked for a scope that none
        of the person’s roles allows is issued without it.
      </p>
      {news ? <Done>{news}</Done> : null}
      <ListView
        loaded={loaded}
        what="roles"
        pager="Pages of roles"
        onGo={go}
        empty={
          <EmptyState title="No roles yet">
            <p>
              <Link href={newHref}>Create a role</Link>, then give it to users on their pages.
            </p>
          </EmptyState>
        }
      >
        {(roles, { resources }) => (
          <DataTable
            caption="Roles"
            rows={roles}
            rowKey={(r) => r.id}
            columns={[
              { label: 'Name', cell: (r) => <Link href={orgHref(org.slug, 'roles', r.id)}>{r.name}</Link> },
              { label: 'Description', cell: (r) => r.description || <span class="muted">—</span> },
              {
                label: 'Permissions',
                cell: (r) => <PermissionList permissions={r.permissions} resources={resources} />,
              },
              { label: 'Created', cell: (r) => when(r.created_at) },
            ]}
          />
        )}
      </ListView>
    </>
  );
}

/** `/roles/new` is the form for a new role; any other id is that role's page. */
export function RoleDetail({ org, id }: OrgScreenProps) {
  if (!canWrite(org)) return <RolesOwnersOnly />;
  if (id === 'new') return <NewRole org={org} />;
  return <RolePage org={org} id={id ?? ''} />;
}
