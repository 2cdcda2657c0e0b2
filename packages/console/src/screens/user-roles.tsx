import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { allResources, allRoles, entriesOf, listPage } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { ApiResource, User, UserRole } from '../api/types.js';
import { CheckboxField, Form } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, LoadNotice } from '../components/notices.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { PermissionList } from './permission-picker.js';

/** The org's roles, the ones this user has, and the resources (to name them). */
async function loadRoles(slug: string, userId: string) {
  const [all, mine, resources] = await Promise.all([
    allRoles(slug),
    listPage(api.GET('/organizations/{org}/users/{id}/roles', oneIn(slug, userId))),
    allResources(slug),
  ]);
  return { all, mine: mine.entries, resources };
}

/** The user's roles: what they have and what that allows, a checkbox for each role of the org. */
export function RolesPanel({ slug, user }: { slug: string; user: User }) {
  const loaded = useLoad(() => loadRoles(slug, user.id), [slug, user.id]);
  return (
    <section class="panel user-panel" aria-labelledby="user-roles-title">
      <h2 id="user-roles-title">Roles</h2>
      <LoadNotice loaded={loaded} what="roles" />
      {loaded.state === 'ok' ? (
        <RolesForm
          key={user.id}
          slug={slug}
          user={user}
          all={loaded.data.all}
          mine={loaded.data.mine}
          resources={loaded.data.resources}
        />
      ) : null}
    </section>
  );
}

function RolesForm({
  slug,
  user,
  all,
  mine,
  resources,
}: {
  slug: string;
  user: User;
  all: UserRole[];
  mine: UserRole[];
  resources: ApiResource[];
}) {
  /** The roles as the API last answered them. */
  const [held, setHeld] = useState(mine);
  const [chosen, setChosen] = useState(() => new Set(mine.map((r) => r.id)));
  const { error, busy, run } = useAction();
  const [saved, setSaved] = useState(false);
  // A role the user has that the list did not show (just made elsewhere) still has its checkbox.
  const roles = [...all, ...held.filter((r) => !all.some((a) => a.id === r.id))];
  return (
    <>
      <ErrorNotice error={error} />
      {saved ? <Done>Roles saved.</Done> : null}
      <p>
        {held.length === 0
          ? 'No roles: tokens for this user carry no scopes of the organization’s API resources.'
          : `Has ${held.length === 1 ? 'the role' : 'the roles'} ${held.map((r) => r.name).join(', ')}.`}
      </p>
      {roles.length === 0 ? (
        <p class="muted">
          This organization has no roles yet: <Link href={orgHref(slug, 'roles', 'new')}>create one</Link> on
          the Roles screen.
        </p>
      ) : (
        <Form
          label="Roles"
          onSubmit={() => {
            setSaved(false);
            return run(async () => {
              const now = entriesOf(
                await body(
                  api.PUT('/organizations/{org}/users/{id}/roles', {
                    ...oneIn(slug, user.id),
                    body: { roles: roles.filter((r) => chosen.has(r.id)).map((r) => r.id) },
                  }),
                ),
              );
              setHeld(now);
              setChosen(new Set(now.map((r) => r.id)));
              setSaved(true);
            });
          }}
        >
          <fieldset class="role-picker">
            <legend>Roles of {user.email}</legend>
            {roles.map((r) => (
              <div key={r.id} class="role-option">
                <CheckboxField
                  label={r.name}
                  name="roles"
                  checked={chosen.has(r.id)}
                  hint={r.description || undefined}
                  onChange={(on) => {
                    const next = new Set(chosen);
                    if (on) next.add(r.id);
                    else next.delete(r.id);
                    setChosen(next);
                  }}
                />
                <div class="role-grants">
                  <span class="muted">Allows: </span>
                  <PermissionList permissions={r.permissions} resources={resources} />
                </div>
              </div>
            ))}
          </fieldset>
          <div>
            <button type="submit" disabled={busy}>
              Save roles
            </button>
          </div>
        </Form>
      )}
    </>
  );
}
