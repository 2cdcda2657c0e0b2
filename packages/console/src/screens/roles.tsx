import { useState } from 'preact/hooks';
import { orgPath } from '../api/client.js';
import { allPages, getList } from '../api/lists.js';
import type { ApiResource, UserRole } from '../api/types.js';
import { Link } from '../components/link.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useLoad } from '../use-load.js';
import { PermissionList } from './permission-picker.js';
import { NewRole, RolePage, RolesOwnersOnly, takeRoleNews } from './role-detail.js';

const listHref = (slug: string) => orgHref(slug, 'roles');

/** The roles of the org's end users (owners only), a page at a time; the page is in the address. */
export function Roles({ org }: OrgScreenProps) {
  return canWrite(org) ? <RoleList org={org} /> : <RolesOwnersOnly />;
}

function RoleList({ org }: { org: OrgScreenProps['org'] }) {
  const { query } = useLocation();
  const page = query.get('page') ?? '0';
  const [news] = useState(takeRoleNews);
  const loaded = useLoad(async () => {
    const [list, resources] = await Promise.all([
      getList<UserRole>(
        `${orgPath(org.slug, 'roles')}${page === '0' ? '' : `?page=${encodeURIComponent(page)}`}`,
      ),
      allPages<ApiResource>(orgPath(org.slug, 'resources')),
    ]);
    return { ...list, resources };
  }, [org.slug, page]);
  const newHref = orgHref(org.slug, 'roles', 'new');
  return (
    <>
      <div class="page-head">
        <h1>Roles</h1>
        <Link href={newHref} class="button">
          New role
        </Link>
      </div>
      <p class="muted">
        Roles give this organization’s users scopes of its API resources. A token asked for a scope that none
        of the person’s roles allows is issued without it.
      </p>
      {news ? <Done>{news}</Done> : null}
      {loaded.state === 'loading' ? <Loading what="roles" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.entries.length === 0 ? (
        <EmptyState title="No roles yet">
          <p>
            <Link href={newHref}>Create a role</Link>, then give it to users on their pages.
          </p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.entries.length > 0 ? (
        <>
          <div class="table-wrap">
            <table class="stack">
              <caption class="visually-hidden">Roles</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Description</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.entries.map((r) => (
                  <tr key={r.id}>
                    <td data-label="Name">
                      <Link href={orgHref(org.slug, 'roles', r.id)}>{r.name}</Link>
                    </td>
                    <td data-label="Description">{r.description || <span class="muted">—</span>}</td>
                    <td data-label="Permissions">
                      <PermissionList permissions={r.permissions} resources={loaded.data.resources} />
                    </td>
                    <td data-label="Created">{when(r.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of roles"
            links={loaded.data.links}
            onGo={(path) => {
              const to = new URL(path, location.origin).searchParams.get('page') ?? '0';
              navigate(to === '0' ? listHref(org.slug) : `${listHref(org.slug)}?page=${to}`);
            }}
          />
        </>
      ) : null}
    </>
  );
}

/** `/roles/new` is the form for a new role; any other id is that role's page. */
export function RoleDetail({ org, id }: OrgScreenProps) {
  if (!canWrite(org)) return <RolesOwnersOnly />;
  if (id === 'new') return <NewRole org={org} />;
  return <RolePage org={org} id={id ?? ''} />;
}
