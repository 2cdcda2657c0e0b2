import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { allResources, entriesOf, listPage } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { ApiResource, Client, Permission } from '../api/types.js';
import { useSave } from '../components/edit-panel.js';
import { Form } from '../components/fields.js';
import { Done, ErrorNotice, LoadNotice } from '../components/notices.js';
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
      listPage(api.GET('/organizations/{org}/clients/{id}/permissions', oneIn(org.slug, client.client_id))),
      allResources(org.slug),
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
      <LoadNotice loaded={loaded} what="the client’s permissions" />
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
  const saving = useSave(() => {}, 'Permissions saved.');
  return (
    <>
      <ErrorNotice error={saving.error} />
      {saving.saved ? <Done>{saving.saved}</Done> : null}
      <div class="held">
        <span>Has now: </span>
        <PermissionList permissions={held} resources={resources} />
      </div>
      <Form
        label="API permissions"
        onSubmit={() =>
          saving.save(samePermissions(chosen, held) ? {} : { permissions: chosen }, async () => {
            const now = entriesOf(
              await body(
                api.PUT('/organizations/{org}/clients/{id}/permissions', {
                  ...oneIn(org.slug, client.client_id),
                  body: { permissions: chosen },
                }),
              ),
            );
            setHeld(now);
            setChosen(ordered(now, resources));
          })
        }
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
          <button type="submit" disabled={saving.busy}>
            Save permissions
          </button>
        </div>
      </Form>
    </>
  );
}
