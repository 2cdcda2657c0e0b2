import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { allResources } from '../api/lists.js';
import { inOrg, oneIn } from '../api/params.js';
import type { ApiResource, Permission, UserRole } from '../api/types.js';
import { DeletePanel } from '../components/confirm-panel.js';
import { DetailPage } from '../components/detail-page.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { EditPanel, useEditDraft } from '../components/edit-panel.js';
import { Fact } from '../components/fact.js';
import { FormPanel } from '../components/form-panel.js';
import { Done, LoadNotice } from '../components/notices.js';
import { DetailHead } from '../components/page-head.js';
import { when } from '../format.js';
import { loadAll } from '../load-all.js';
import { oneTimeNews } from '../news.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useDraft } from '../use-draft.js';
import { useLoad } from '../use-load.js';
import { PermissionList, PermissionPicker, samePermissions } from './permission-picker.js';

type Org = OrgScreenProps['org'];

const PICKER_HINT =
  'The scopes a user with this role may be granted. People are still asked to consent to each one an app asks for.';

/** Roles this tab created a moment ago: their page says so once. */
const justCreated = new Set<string>();
/** A line for the list to announce once (a role just deleted). */
export const roleNews = oneTimeNews();

/** Roles are the API's owner-only lists: a member sees why there is nothing here. */
export function RolesOwnersOnly() {
  return <p class="notice info">Only owners of this organization can see and change its roles.</p>;
}

const listHref = (slug: string) => orgHref(slug, 'roles');

/** A role's form values: its name, description and permissions. */
interface RoleDraft {
  name: string;
  description: string;
  permissions: Permission[];
}

const ROLE_FIELDS: readonly FieldDecl<RoleDraft>[] = [
  {
    key: 'name',
    label: 'Name',
    required: true,
    hint: '1 to 64 characters, unique in this organization, like editor.',
  },
  { key: 'description', label: 'Description', hint: 'Optional, up to 200 characters: what the role is for.' },
];

/** The fields of a role, the same on create and edit. */
function RoleFields({
  slug,
  resources,
  draft,
  set,
}: {
  slug: string;
  resources: readonly ApiResource[];
  draft: RoleDraft;
  set: (change: Partial<RoleDraft>) => void;
}) {
  return (
    <>
      <DraftFields draft={draft} set={set} fields={ROLE_FIELDS} />
      <PermissionPicker
        slug={slug}
        resources={resources}
        value={draft.permissions}
        onChange={(permissions) => set({ permissions })}
        legend="Permissions"
        hint={PICKER_HINT}
      />
    </>
  );
}

export function NewRole({ org }: { org: Org }) {
  const resources = useLoad(() => allResources(org.slug), [org.slug]);
  return (
    <>
      <DetailHead href={listHref(org.slug)} back="All roles" title="New role" />
      <LoadNotice loaded={resources} what="the API resources" />
      {resources.state === 'ok' ? <NewRoleForm org={org} resources={resources.data} /> : null}
    </>
  );
}

function NewRoleForm({ org, resources }: { org: Org; resources: ApiResource[] }) {
  const [draft, set] = useDraft<RoleDraft>({ name: '', description: '', permissions: [] });
  const action = useAction();
  return (
    <FormPanel
      title="New role"
      submit="Create role"
      state={action}
      onSubmit={() =>
        action.run(async () => {
          const { name, description, permissions } = draft;
          const data = await body(
            api.POST('/organizations/{org}/roles', {
              ...inOrg(org.slug),
              body: { name, description, permissions },
            }),
          );
          justCreated.add(data.id);
          navigate(orgHref(org.slug, 'roles', data.id), { replace: true });
        })
      }
    >
      <RoleFields slug={org.slug} resources={resources} draft={draft} set={set} />
    </FormPanel>
  );
}

/** One role: its facts, its name, description and permissions to change, deletion. */
export function RolePage({ org, id }: { org: Org; id: string }) {
  const [fresh] = useState(() => justCreated.delete(id));
  const loaded = useLoad(
    () =>
      loadAll({
        role: body(api.GET('/organizations/{org}/roles/{id}', oneIn(org.slug, id))),
        resources: allResources(org.slug),
      }),
    [org.slug, id],
  );
  return (
    <DetailPage
      loaded={loaded}
      href={listHref(org.slug)}
      back="All roles"
      name={(data) => data.role.name}
      fallback="Role"
      what="the role"
      notes={fresh ? <Done>Role created.</Done> : null}
    >
      {({ role, resources }) => (
        <>
          <dl class="facts panel">
            <Fact term="Id" code={role.id} />
            <Fact term="Description">{role.description || <span class="muted">None given</span>}</Fact>
            <Fact term="Permissions">
              <PermissionList permissions={role.permissions} resources={resources} />
            </Fact>
            <Fact term="Created">{when(role.created_at)}</Fact>
          </dl>
          <EditRole key={role.id} org={org} role={role} resources={resources} onSaved={loaded.reload} />
          <DeletePanel
            id="delete-role"
            title="Delete role"
            question={`Delete the role ${role.name} for good?`}
            remove={() => api.DELETE('/organizations/{org}/roles/{id}', oneIn(org.slug, role.id))}
            news={{ to: roleNews, line: `Role ${role.name} deleted.` }}
            href={listHref(org.slug)}
          >
            <p>
              Deleting takes the role from every user who has it: their next tokens no longer carry its
              scopes. This cannot be undone.
            </p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

function EditRole({
  org,
  role,
  resources,
  onSaved,
}: {
  org: Org;
  role: UserRole;
  resources: ApiResource[];
  onSaved: () => void;
}) {
  const { draft, set, saving } = useEditDraft<RoleDraft>(
    () => ({ name: role.name, description: role.description, permissions: role.permissions }),
    onSaved,
  );
  return (
    <EditPanel
      id="edit-role"
      title="Edit role"
      state={saving}
      onSubmit={() => {
        const { name, description, permissions } = draft;
        const changes = {
          ...(name === role.name ? {} : { name }),
          ...(description === role.description ? {} : { description }),
          ...(samePermissions(permissions, role.permissions) ? {} : { permissions }),
        };
        return saving.save(changes, () =>
          ok(
            api.PATCH('/organizations/{org}/roles/{id}', {
              ...oneIn(org.slug, role.id),
              body: changes,
            }),
          ),
        );
      }}
    >
      <RoleFields slug={org.slug} resources={resources} draft={draft} set={set} />
    </EditPanel>
  );
}
