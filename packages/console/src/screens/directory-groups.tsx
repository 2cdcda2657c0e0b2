import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { listPage } from '../api/lists.js';
import type { Directory, DirectoryGroup, UserRole } from '../api/types.js';
import { ChoiceFieldset } from '../components/choice-fieldset.js';
import { Form } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListTable } from '../components/list-table.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { usePage } from '../use-page.js';

type Org = OrgScreenProps['org'];

/** The roles' names, in the org's words; a role no longer the org's by its id. */
const roleNames = (ids: readonly string[], roles: readonly UserRole[]) =>
  ids.map((id) => roles.find((r) => r.id === id)?.name ?? id);

/**
 * The groups the identity provider pushed to this directory, a page at a time, and the org roles each
 * gives its members: an owner picks them, and members gain or lose them with their next token.
 */
export function DirectoryGroups({
  org,
  directory,
  roles,
}: {
  org: Org;
  directory: Directory;
  roles: readonly UserRole[];
}) {
  const { page, go } = usePage();
  const [editing, setEditing] = useState<DirectoryGroup | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const loaded = useLoad(
    () =>
      listPage(
        api.GET('/organizations/{org}/directories/{id}/groups', {
          params: { path: { org: org.slug, id: directory.id }, query: { page } },
        }),
      ),
    [org.slug, directory.id, page],
  );
  return (
    <section class="panel" aria-labelledby="directory-groups">
      <h2 id="directory-groups">Groups and roles</h2>
      <p class="muted">
        Groups come from your identity provider (Okta: Push Groups; Entra ID: assigned groups). Mapping a
        group to roles gives its members those roles; taking a role off takes it from them, unless an owner
        gave it to them on their page.
      </p>
      {saved ? <Done>{saved}</Done> : null}
      <ListTable
        loaded={loaded}
        what="groups"
        pager="Pages of groups"
        onGo={go}
        empty={
          <EmptyState title="No groups yet">
            <p>They appear here once your identity provider pushes them.</p>
          </EmptyState>
        }
        caption="Groups of this directory"
        rowKey={(g) => g.id}
        columns={[
          { label: 'Group', cell: (g) => g.display_name },
          { label: 'Members', cell: (g) => String(g.members) },
          {
            label: 'Roles',
            cell: (g) =>
              g.roles.length === 0 ? <span class="muted">None</span> : roleNames(g.roles, roles).join(', '),
          },
          {
            label: 'Change',
            cell: (g) => (
              <button
                type="button"
                class="secondary"
                aria-label={`Change the roles of ${g.display_name}`}
                onClick={() => {
                  setSaved(null);
                  setEditing(g);
                }}
              >
                Change roles
              </button>
            ),
          },
        ]}
      />
      {editing ? (
        <GroupRoles
          key={editing.id}
          org={org}
          directory={directory}
          group={editing}
          roles={roles}
          onCancel={() => setEditing(null)}
          onSaved={(group) => {
            setEditing(null);
            setSaved(
              `${group.display_name}: ${group.roles.length === 0 ? 'no roles' : roleNames(group.roles, roles).join(', ')}.`,
            );
            loaded.reload();
          }}
        />
      ) : null}
    </section>
  );
}

function GroupRoles({
  org,
  directory,
  group,
  roles,
  onCancel,
  onSaved,
}: {
  org: Org;
  directory: Directory;
  group: DirectoryGroup;
  roles: readonly UserRole[];
  onCancel: () => void;
  onSaved: (group: DirectoryGroup) => void;
}) {
  const [chosen, setChosen] = useState(group.roles);
  const { error, busy, run } = useAction();
  // A mapped role that is no longer the org's keeps its checkbox, named by its id, so it can be dropped.
  const shown = [
    ...roles,
    ...group.roles.filter((id) => !roles.some((r) => r.id === id)).map((id) => ({ id, name: id })),
  ];
  const title = `Roles of ${group.display_name}`;
  return (
    <div class="group-roles">
      <ErrorNotice error={error} />
      <Form
        label={title}
        onSubmit={() =>
          run(async () =>
            onSaved(
              await body(
                api.PUT('/organizations/{org}/directories/{id}/groups/{group}/roles', {
                  params: { path: { org: org.slug, id: directory.id, group: group.id } },
                  body: { roles: shown.filter((r) => chosen.includes(r.id)).map((r) => r.id) },
                }),
              ),
            ),
          )
        }
      >
        <ChoiceFieldset
          legend={title}
          name="roles"
          choices={shown.map((r) => ({ id: r.id, label: r.name }))}
          chosen={chosen}
          onChange={setChosen}
          none={
            <>
              This organization has no roles yet:{' '}
              <Link href={orgHref(org.slug, 'roles', 'new')}>create one</Link> on the Roles screen.
            </>
          }
        />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Save roles
          </button>
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </Form>
    </div>
  );
}
