import { useState } from 'preact/hooks';
import { del, get, orgPath, patch, post } from '../api/client.js';
import { allPages } from '../api/lists.js';
import type { ApiResource, Permission, UserRole } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { PermissionList, PermissionPicker, samePermissions } from './permission-picker.js';

type Org = OrgScreenProps['org'];

const PICKER_HINT =
  'The scopes a user with this role may be granted. People are still asked to consent to each one an app asks for.';

/** Roles this tab created a moment ago: their page says so once. */
const justCreated = new Set<string>();
let listNews: string | null = null;
/** A line for the list to announce once (a role just deleted). */
export const takeRoleNews = () => {
  const line = listNews;
  listNews = null;
  return line;
};

export function RolesOwnersOnly() {
  return (
    <>
      <h1>Roles</h1>
      <p class="notice info">Only owners of this organization can see and change its roles.</p>
    </>
  );
}

const loadResources = (slug: string) => allPages<ApiResource>(orgPath(slug, 'resources'));

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
  const resources = useLoad(() => loadResources(org.slug), [org.slug]);
  return (
    <>
      <Crumbs slug={org.slug} />
      <h1>New role</h1>
      {resources.state === 'loading' ? <Loading what="the API resources" /> : null}
      {resources.state === 'error' ? <ErrorNotice error={resources.error} /> : null}
      {resources.state === 'ok' ? <NewRoleForm org={org} resources={resources.data} /> : null}
    </>
  );
}

function NewRoleForm({ org, resources }: { org: Org; resources: ApiResource[] }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div class="panel">
      <ErrorNotice error={error} />
      <Form
        label="New role"
        onSubmit={async () => {
          setBusy(true);
          setError(null);
          try {
            const { data } = await post<UserRole>(orgPath(org.slug, 'roles'), {
              name,
              description,
              permissions,
            });
            justCreated.add(data.id);
            navigate(orgHref(org.slug, 'roles', data.id), { replace: true });
          } catch (e) {
            setError(e);
            setBusy(false);
          }
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
      get<UserRole>(orgPath(org.slug, 'roles', id)).then((a) => a.data),
      loadResources(org.slug),
    ]);
    return { role, resources };
  }, [org.slug, id]);
  const role = loaded.state === 'ok' ? loaded.data.role : null;
  return (
    <>
      <Crumbs slug={org.slug} />
      <h1>{role ? role.name : 'Role'}</h1>
      {fresh ? <Done>Role created.</Done> : null}
      {loaded.state === 'loading' ? <Loading what="the role" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
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
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="panel" aria-labelledby="edit-role">
      <h2 id="edit-role">Edit role</h2>
      <ErrorNotice error={error} />
      {saved ? <Done>{saved}</Done> : null}
      <Form
        label="Edit role"
        onSubmit={async () => {
          setError(null);
          setSaved(null);
          const changes = {
            ...(name === role.name ? {} : { name }),
            ...(description === role.description ? {} : { description }),
            ...(samePermissions(permissions, role.permissions) ? {} : { permissions }),
          };
          if (Object.keys(changes).length === 0) {
            setSaved('Nothing changed: there was nothing to save.');
            return;
          }
          setBusy(true);
          try {
            await patch<UserRole>(orgPath(org.slug, 'roles', role.id), changes);
            setSaved('Changes saved.');
            onSaved();
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
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
        <div class="actions">
          <button type="submit" disabled={busy}>
            Save changes
          </button>
        </div>
      </Form>
    </section>
  );
}

function DeleteRole({ org, role }: { org: Org; role: UserRole }) {
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="panel" aria-labelledby="delete-role">
      <h2 id="delete-role">Delete role</h2>
      <p>
        Deleting takes the role from every user who has it: their next tokens no longer carry its scopes. This
        cannot be undone.
      </p>
      <ErrorNotice error={error} />
      <ConfirmButton
        question={`Delete the role ${role.name} for good?`}
        confirmLabel="Yes, delete it"
        onConfirm={async () => {
          setError(null);
          try {
            await del(orgPath(org.slug, 'roles', role.id));
            listNews = `Role ${role.name} deleted.`;
            navigate(orgHref(org.slug, 'roles'));
          } catch (e) {
            setError(e);
          }
        }}
      >
        Delete role
      </ConfirmButton>
    </section>
  );
}
