import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { allResources } from '../api/lists.js';
import type { ApiResource, Permission, UserRole } from '../api/types.js';
import { ConfirmPanel } from '../components/confirm-panel.js';
import { EditPanel, useSave } from '../components/edit-panel.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, LoadNotice } from '../components/notices.js';
import { when } from '../format.js';
import { oneTimeNews } from '../news.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
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

function Crumbs({ slug }: { slug: string }) {
  return (
    <p class="crumbs">
      <Link href={orgHref(slug, 'roles')}>← All roles</Link>
    </p>
  );
}

/** The fields of a role, the same on create and edit. */
function RoleFields(v: {
  slug: string;
  resources: readonly ApiResource[];
  name: string;
  onName: (name: string) => void;
  description: string;
  onDescription: (description: string) => void;
  permissions: readonly Permission[];
  onPermissions: (permissions: Permission[]) => void;
}) {
  return (
    <>
      <TextField
        label="Name"
        name="name"
        value={v.name}
        onInput={v.onName}
        required
        hint="1 to 64 characters, unique in this organization, like editor."
      />
      <TextField
        label="Description"
        name="description"
        value={v.description}
        onInput={v.onDescription}
        hint="Optional, up to 200 characters: what the role is for."
      />
      <PermissionPicker
        slug={v.slug}
        resources={v.resources}
        value={v.permissions}
        onChange={v.onPermissions}
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
      <Crumbs slug={org.slug} />
      <h1>New role</h1>
      <LoadNotice loaded={resources} what="the API resources" />
      {resources.state === 'ok' ? <NewRoleForm org={org} resources={resources.data} /> : null}
    </>
  );
}

function NewRoleForm({ org, resources }: { org: Org; resources: ApiResource[] }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const { error, busy, run } = useAction();
  return (
    <div class="panel">
      <ErrorNotice error={error} />
      <Form
        label="New role"
        onSubmit={() =>
          run(async () => {
            const data = await body(
              api.POST('/organizations/{org}/roles', {
                params: { path: { org: org.slug } },
                body: { name, description, permissions },
              }),
            );
            justCreated.add(data.id);
            navigate(orgHref(org.slug, 'roles', data.id), { replace: true });
          })
        }
      >
        <RoleFields
          slug={org.slug}
          resources={resources}
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
          permissions={permissions}
          onPermissions={setPermissions}
        />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create role
          </button>
        </div>
      </Form>
    </div>
  );
}

/** One role: its facts, its name, description and permissions to change, deletion. */
export function RolePage({ org, id }: { org: Org; id: string }) {
  const [fresh] = useState(() => justCreated.delete(id));
  const loaded = useLoad(async () => {
    const [role, resources] = await Promise.all([
      body(api.GET('/organizations/{org}/roles/{id}', { params: { path: { org: org.slug, id } } })),
      allResources(org.slug),
    ]);
    return { role, resources };
  }, [org.slug, id]);
  const role = loaded.state === 'ok' ? loaded.data.role : null;
  return (
    <>
      <Crumbs slug={org.slug} />
      <h1>{role ? role.name : 'Role'}</h1>
      {fresh ? <Done>Role created.</Done> : null}
      <LoadNotice loaded={loaded} what="the role" />
      {loaded.state === 'ok' && role ? (
        <>
          <dl class="facts panel">
            <dt>Id</dt>
            <dd>
              <code>{role.id}</code>
            </dd>
            <dt>Description</dt>
            <dd>{role.description || <span class="muted">None given</span>}</dd>
            <dt>Permissions</dt>
            <dd>
              <PermissionList permissions={role.permissions} resources={loaded.data.resources} />
            </dd>
            <dt>Created</dt>
            <dd>{when(role.created_at)}</dd>
          </dl>
          <EditRole
            key={role.id}
            org={org}
            role={role}
            resources={loaded.data.resources}
            onSaved={loaded.reload}
          />
          <DeleteRole org={org} role={role} />
        </>
      ) : null}
    </>
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
  const [name, setName] = useState(role.name);
  const [description, setDescription] = useState(role.description);
  const [permissions, setPermissions] = useState<Permission[]>(role.permissions);
  const saving = useSave(onSaved);
  return (
    <EditPanel
      id="edit-role"
      title="Edit role"
      state={saving}
      onSubmit={() => {
        const changes = {
          ...(name === role.name ? {} : { name }),
          ...(description === role.description ? {} : { description }),
          ...(samePermissions(permissions, role.permissions) ? {} : { permissions }),
        };
        return saving.save(changes, () =>
          ok(
            api.PATCH('/organizations/{org}/roles/{id}', {
              params: { path: { org: org.slug, id: role.id } },
              body: changes,
            }),
          ),
        );
      }}
    >
      <RoleFields
        slug={org.slug}
        resources={resources}
        name={name}
        onName={setName}
        description={description}
        onDescription={setDescription}
        permissions={permissions}
        onPermissions={setPermissions}
      />
    </EditPanel>
  );
}

function DeleteRole({ org, role }: { org: Org; role: UserRole }) {
  return (
    <ConfirmPanel
      id="delete-role"
      title="Delete role"
      question={`Delete the role ${role.name} for good?`}
      onConfirm={async () => {
        await ok(
          api.DELETE('/organizations/{org}/roles/{id}', { params: { path: { org: org.slug, id: role.id } } }),
        );
        roleNews.set(`Role ${role.name} deleted.`);
        navigate(orgHref(org.slug, 'roles'));
      }}
    >
      <p>
        Deleting takes the role from every user who has it: their next tokens no longer carry its scopes. This
        cannot be undone.
      </p>
    </ConfirmPanel>
  );
}
