import { useEffect, useState } from 'preact/hooks';
import { get, orgPath } from '../api/client.js';
import type { User } from '../api/types.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { fullName, when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useLoad } from '../use-load.js';
import { NewUserForm } from './user-new.js';
import { OwnersOnly, StatusBadge } from './user-parts.js';

export { UserDetail } from './user-detail.js';

/** `/console/o/{slug}/users?q=…`: where a search lives, so a reload or a link keeps it. */
const listHref = (slug: string, q: string) =>
  `${orgHref(slug, 'users')}${q ? `?${new URLSearchParams({ q })}` : ''}`;

/** The org's users (owners only): search by email or name, page through, add one. */
export function Users({ org }: OrgScreenProps) {
  const [creating, setCreating] = useState(false);
  if (!canWrite(org)) {
    return (
      <>
        <h1>Users</h1>
        <OwnersOnly />
      </>
    );
  }
  return (
    <>
      <div class="page-head">
        <h1>Users</h1>
        {creating ? null : (
          <button type="button" onClick={() => setCreating(true)}>
            New user
          </button>
        )}
      </div>
      {creating ? <NewUserForm org={org} onCancel={() => setCreating(false)} /> : null}
      <UserList org={org} />
    </>
  );
}

function UserList({ org }: OrgScreenProps) {
  const { query } = useLocation();
  const q = (query.get('q') ?? '').trim();
  const first = `${orgPath(org.slug, 'users')}${q ? `?${new URLSearchParams({ q })}` : ''}`;
  // The page followed through the Pager, for the search it belongs to; a new search starts over.
  const [followed, setFollowed] = useState<{ q: string; path: string } | null>(null);
  const path = followed && followed.q === q ? followed.path : first;
  const loaded = useLoad(() => get<User[]>(path), [path]);
  return (
    <>
      <SearchForm slug={org.slug} q={q} />
      {loaded.state === 'loading' ? <Loading what="users" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' ? (
        <>
          <UserTable slug={org.slug} users={loaded.data.data} q={q} />
          <Pager
            label="Pages of users"
            links={loaded.data.links}
            onGo={(to) => setFollowed({ q, path: to })}
          />
        </>
      ) : null}
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

function UserTable({ slug, users, q }: { slug: string; users: User[]; q: string }) {
  if (users.length === 0) {
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
  return (
    <div class="table-wrap">
      <table class="users-table">
        <caption class="visually-hidden">{q ? `Users matching “${q}”` : 'Users'}</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>
                <Link href={orgHref(slug, 'users', u.id)}>{u.email}</Link>
              </td>
              <td>{fullName(u) || <span class="muted">—</span>}</td>
              <td>{u.disabled ? <StatusBadge user={u} /> : 'Active'}</td>
              <td>{when(u.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
