import { useState } from 'preact/hooks';
import { orgPath, put } from '../api/client.js';
import { allPages, entriesOf, getList, type ListBody } from '../api/lists.js';
import type { ApiResource, Client, Permission } from '../api/types.js';
import { Form } from '../components/fields.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import type { OrgScreenProps } from '../org-context.js';
import { useLoad } from '../use-load.js';
import { ordered, PermissionList, PermissionPicker, samePermissions } from './permission-picker.js';

const PICKER_HINT =
  'What the client may get when it asks a token for itself (client_credentials) naming a resource: that token is bound to the resource and carries only the scopes checked here.';

/**
 * A confidential client's permissions: the scopes of the org's resources it may get as itself.
 * (Public clients have none: they only act for a person, whose roles decide.)
 */
export function ClientPermissions({ org, client }: { org: OrgScreenProps['org']; client: Client }) {
  const loaded = useLoad(async () => {
    const [held, resources] = await Promise.all([
      getList<Permission>(orgPath(org.slug, 'clients', client.client_id, 'permissions')),
      allPages<ApiResource>(orgPath(org.slug, 'resources')),
    ]);
    return { held: held.entries, resources };
  }, [org.slug, client.client_id]);
  return (
    <section class="panel" aria-labelledby="client-permissions">
      <h2 id="client-permissions">API permissions</h2>
      {client.grant_types.includes('client_credentials') ? null : (
        <p class="notice info">
          This client does not have the client_credentials grant, so it cannot ask tokens for itself: these
          permissions apply once it has.
        </p>
      )}
      {loaded.state === 'loading' ? <Loading what="the client’s permissions" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' ? (
        <PermissionsForm
          key={client.client_id}
          org={org}
          client={client}
          held={loaded.data.held}
          resources={loaded.data.resources}
        />
      ) : null}
    </section>
  );
}

function PermissionsForm({
  org,
  client,
  held: initial,
  resources,
}: {
  org: OrgScreenProps['org'];
  client: Client;
  held: Permission[];
  resources: ApiResource[];
}) {
  /** The permissions as the API last answered them, and as checked now. */
  const [held, setHeld] = useState(initial);
  const [chosen, setChosen] = useState(() => ordered(initial, resources));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <ErrorNotice error={error} />
      {saved ? <Done>{saved}</Done> : null}
      <div class="held">
        <span>Has now: </span>
        <PermissionList permissions={held} resources={resources} />
      </div>
      <Form
        label="API permissions"
        onSubmit={async () => {
          setError(null);
          setSaved(null);
          if (samePermissions(chosen, held)) {
            setSaved('Nothing changed: there was nothing to save.');
            return;
          }
          setBusy(true);
          try {
            const { data } = await put<ListBody<Permission>>(
              orgPath(org.slug, 'clients', client.client_id, 'permissions'),
              { permissions: chosen },
            );
            const now = entriesOf(data);
            setHeld(now);
            setChosen(ordered(now, resources));
            setSaved('Permissions saved.');
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        <PermissionPicker
          slug={org.slug}
          resources={resources}
          value={chosen}
          onChange={setChosen}
          legend="Permissions"
          hint={PICKER_HINT}
        />
        <div>
          <button type="submit" disabled={busy}>
            Save permissions
          </button>
        </div>
      </Form>
    </>
  );
}
