import { allResources, listPageWith, rolesPage } from '../api/lists.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { EmptyState } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { useAddressPage } from '../use-page.js';
import { PermissionList } from './permission-picker.js';
import { NewRole, RolePage, RolesOwnersOnly, roleNews } from './role-detail.js';

const listHref = (slug: string) => orgHref(slug, 'roles');

/** The roles of the org's end users (owners only), a page at a time; the page is in the address. */
export const Roles = forOwners('Roles', RolesOwnersOnly, RoleList);

/** `/roles/new` is the form for a new role; any other id is that role's page. */
export const RoleDetail = forOwners('Roles', RolesOwnersOnly, ({ org, id }) =>
  id === 'new' ? <NewRole org={org} /> : <RolePage org={org} id={id} />,
);

function RoleList({ org }: { org: OrgScreenProps['org'] }) {
  const { page, go } = useAddressPage(listHref(org.slug));
  const loaded = useLoad(
    () => listPageWith(rolesPage(org.slug, { page }), { resources: allResources(org.slug) }),
    [org.slug, page],
  );
  const newHref = orgHref(org.slug, 'roles', 'new');
  return (
    <ListScreen
      title="Roles"
      action={{ href: newHref, label: 'New role' }}
      news={roleNews}
      intro={
        <>
          Roles give this organization’s users scopes of its API resources. A token asked for a scope that
          none of the person’s roles allows is issued without it.
        </>
      }
    >
      <ListTable
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
        caption="Roles"
        rowKey={(r) => r.id}
        columns={({ resources }) => [
          { label: 'Name', cell: (r) => <Link href={orgHref(org.slug, 'roles', r.id)}>{r.name}</Link> },
          { label: 'Description', cell: (r) => r.description || <span class="muted">—</span> },
          {
            label: 'Permissions',
            cell: (r) => <PermissionList permissions={r.permissions} resources={resources} />,
          },
          { label: 'Created', cell: (r) => when(r.created_at) },
        ]}
      />
    </ListScreen>
  );
}
