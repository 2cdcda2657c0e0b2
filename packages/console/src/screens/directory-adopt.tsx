import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { listPage } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { Directory, User } from '../api/types.js';
import { DataTable } from '../components/data-table.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice } from '../components/notices.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';

type Org = OrgScreenProps['org'];

/**
 * Adopting an existing user: a directory never takes over an account by provisioning its address (the
 * provider gets 409 `uniqueness`), so an owner finds the user here and hands them to the directory.
 */
export function AdoptUser({ org, directory }: { org: Org; directory: Directory }) {
  const [q, setQ] = useState('');
  const [found, setFound] = useState<User[] | null>(null);
  const [adopted, setAdopted] = useState<string | null>(null);
  const search = useAction();
  const adopt = useAction();
  return (
    <section class="panel" aria-labelledby="adopt-user">
      <h2 id="adopt-user">Adopt an existing user</h2>
      <p class="muted">
        When the provider reports that a user already exists, that address belongs to an account this
        directory did not create. Adopt it here: the directory then finds it by its address and manages it.
      </p>
      {adopted ? <Done>{adopted}</Done> : null}
      <ErrorNotice error={search.error} />
      <Form
        label="Find a user to adopt"
        onSubmit={() =>
          search.run(async () => {
            setAdopted(null);
            const page = await listPage(
              api.GET('/organizations/{org}/users', {
                params: { path: { org: org.slug }, query: { q: q.trim(), per_page: 50 } },
              }),
            );
            setFound(page.entries);
          })
        }
      >
        <div class="toolbar">
          <TextField label="Email or name" name="q" type="search" value={q} onInput={setQ} required />
          <button type="submit" disabled={search.busy}>
            Find
          </button>
        </div>
      </Form>
      <ErrorNotice error={adopt.error} />
      {found === null ? null : found.length === 0 ? (
        <p class="muted">No user matches.</p>
      ) : (
        <DataTable
          caption="Users found"
          rows={found}
          rowKey={(u) => u.id}
          columns={[
            { label: 'Email', cell: (u) => <Link href={orgHref(org.slug, 'users', u.id)}>{u.email}</Link> },
            {
              label: 'Adopt',
              cell: (u) => (
                <button
                  type="button"
                  class="secondary"
                  disabled={adopt.busy}
                  aria-label={`Adopt ${u.email}`}
                  onClick={() =>
                    adopt.run(async () => {
                      const r = await body(
                        api.POST('/organizations/{org}/directories/{id}/users', {
                          ...oneIn(org.slug, directory.id),
                          body: { user_id: u.id },
                        }),
                      );
                      setFound(null);
                      setAdopted(`${u.email} is now managed by this directory, as userName ${r.user_name}.`);
                    })
                  }
                >
                  Adopt
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
