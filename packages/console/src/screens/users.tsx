import { useEffect, useState } from 'preact/hooks';
import { api, pageIn } from '../api/client.js';
import { listPage } from '../api/lists.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListTable } from '../components/list-table.js';
import { EmptyState } from '../components/notices.js';
import { forOwners, PageHead } from '../components/page-head.js';
import { fullName, when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useCreating } from '../use-creating.js';
import { useLoad } from '../use-load.js';
import { NewUserForm } from './user-new.js';
import { OwnersOnly, StatusBadge } from './user-parts.js';

export { UserDetail } from './user-detail.js';

/** `/console/o/{slug}/users?q=…`: where a search lives, so a reload or a link keeps it. */
const listHref = (slug: string, q: string) =>
  `${orgHref(slug, 'users')}${q ? `?${new URLSearchParams({ q })}` : ''}`;

/** The org's users (owners only): search by email or name, page through, add one. */
export const Users = forOwners('Users', OwnersOnly, UsersScreen);

function UsersScreen({ org }: OrgScreenProps) {
  const create = useCreating<never>('New user');
  return (
    <>
      <PageHead title="Users" action={create.action} />
      {create.creating ? <NewUserForm org={org} onCancel={create.cancel} /> : null}
      <UserList org={org} />
    </>
  );
}

function UserList({ org }: OrgScreenProps) {
  const { query } = useLocation();
  const q = (query.get('q') ?? '').trim();
  // The page followed through the Pager, for the search it belongs to; a new search starts over.
  const [followed, setFollowed] = useState<{ q: string; page: number } | null>(null);
  const page = followed && followed.q === q ? followed.page : 0;
  const loaded = useLoad(
    () =>
      listPage(
        api.GET('/organizations/{org}/users', {
          params: { path: { org: org.slug }, query: { ...(q ? { q } : {}), page } },
        }),
      ),
    [org.slug, q, page],
  );
  return (
    <>
      <SearchForm slug={org.slug} q={q} />
      <ListTable
        loaded={loaded}
        what="users"
        pager="Pages of users"
        onGo={(to) => setFollowed({ q, page: pageIn(to) })}
        empty={<NoUsers q={q} />}
        class="users-table"
        caption={q ? `Users matching “${q}”` : 'Users'}
        rowKey={(u) => u.id}
        columns={[
          { label: 'Email', cell: (u) => <Link href={orgHref(org.slug, 'users', u.id)}>{u.email}</Link> },
          { label: 'Name', cell: (u) => fullName(u) || <span class="muted">—</span> },
          { label: 'Status', cell: (u) => (u.disabled ? <StatusBadge user={u} /> : 'Active') },
          { label: 'Created', cell: (u) => when(u.created_at) },
        ]}
      />
    </>
  );
}

function SearchForm({ slug, q }: { slug: string; q: string }) {
  const [text, setText] = useState(q);
  // Back and forward change the search under the form.
  useEffect(() => setText(q), [q]);
  return (
    <Form label="Search users" onSubmit={() => navigate(listHref(slug, text.trim()))}>
      <div class="toolbar users-search">
        <TextField label="Search by email or name" name="q" type="search" value={text} onInput={setText} />
        <button type="submit">Search</button>
        {q ? (
          <button type="button" class="secondary" onClick={() => navigate(listHref(slug, ''))}>
            Show all
          </button>
        ) : null}
      </div>
    </Form>
  );
}

function NoUsers({ q }: { q: string }) {
  return q ? (
    <EmptyState title={`No user matches “${q}”.`}>
      <p>Search for part of an email address or a name, or show all users.</p>
    </EmptyState>
  ) : (
    <EmptyState title="No users yet.">
      <p>
        Add one with <strong>New user</strong>, or let people sign up on the organization’s sign-in pages.
      </p>
    </EmptyState>
  );
}
