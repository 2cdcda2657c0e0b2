import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { allRoles } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import { type Connection, connectionOf, type UserRole } from '../api/types.js';
import { DeletePanel } from '../components/confirm-panel.js';
import { CopyValue } from '../components/copy-value.js';
import { DetailPage } from '../components/detail-page.js';
import { EditPanel, useEditDraft } from '../components/edit-panel.js';
import { Fact } from '../components/fact.js';
import { Done } from '../components/notices.js';
import { when } from '../format.js';
import { loadAll } from '../load-all.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import {
  ConnectionFields,
  changesOf,
  connectionNews,
  draftOf,
  justCreated,
  TYPE_LABELS,
} from './connection-fields.js';

type Org = OrgScreenProps['org'];

/** One connection: what to give the identity provider, its settings, changes, deletion. */
export function ConnectionPage({ org, id }: { org: Org; id: string }) {
  const listHref = orgHref(org.slug, 'connections');
  const [fresh] = useState(() => justCreated.delete(id));
  /** Said by the edit form that the save remounts (its key is the stored version). */
  const [saved, setSaved] = useState<string | null>(null);
  const loaded = useLoad(
    () =>
      loadAll({
        connection: body(api.GET('/organizations/{org}/connections/{id}', oneIn(org.slug, id))).then(
          connectionOf,
        ),
        roles: allRoles(org.slug),
      }),
    [org.slug, id],
  );
  return (
    <DetailPage
      loaded={loaded}
      href={listHref}
      back="All connections"
      name={(data) => data.connection.name}
      fallback="Connection"
      what="the connection"
      notes={fresh ? <Done>Connection created. Give your identity provider the values below.</Done> : null}
    >
      {({ connection, roles }) => (
        <>
          <ForTheProvider connection={connection} />
          <Facts connection={connection} roles={roles} />
          <EditConnection
            key={`${connection.id} ${connection.updated_at}`}
            org={org}
            connection={connection}
            roles={roles}
            news={saved}
            onSaved={() => {
              setSaved('Changes saved.');
              loaded.reload();
            }}
          />
          <DeletePanel
            id="delete-connection"
            title="Delete connection"
            question={`Delete the connection ${connection.name} for good?`}
            remove={() => api.DELETE('/organizations/{org}/connections/{id}', oneIn(org.slug, connection.id))}
            news={{ to: connectionNews, line: `Connection ${connection.name} deleted.` }}
            href={listHref}
          >
            <p>
              Its people can no longer sign in through it. Their users stay, unlinked: they can sign in
              another way, or through a new connection. This cannot be undone.
            </p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

/** The values an owner copies into their identity provider's setup. */
function ForTheProvider({ connection: c }: { connection: Connection }) {
  return (
    <section class="panel" aria-labelledby="for-provider">
      <h2 id="for-provider">For your identity provider</h2>
      {c.type === 'oidc' ? (
        <>
          <p>Register an application (a web client) at the provider with this redirect URI:</p>
          <CopyValue
            label="Callback (redirect) URL"
            value={c.callback_url}
            hint="Okta: Sign-in redirect URI. Entra ID: Redirect URI (Web). Google: Authorized redirect URI."
          />
        </>
      ) : (
        <>
          <p>Add a SAML application at the identity provider with these values:</p>
          <CopyValue
            label="ACS URL"
            value={c.acs_url}
            hint="The assertion consumer service (HTTP-POST). Okta: Single sign-on URL. Entra ID: Reply URL."
          />
          <CopyValue
            label="SP entity id"
            value={c.sp_entity_id}
            hint="The audience of its assertions. Okta: Audience URI. Entra ID: Identifier."
          />
          <CopyValue
            label="SP metadata URL"
            value={c.sp_metadata_url}
            hint="A provider that reads metadata can take all of the above from here."
          />
        </>
      )}
    </section>
  );
}

function Facts({ connection: c, roles }: { connection: Connection; roles: UserRole[] }) {
  const roleName = (id: string) => roles.find((r) => r.id === id)?.name ?? id;
  return (
    <dl class="facts panel">
      <Fact term="Id" code={c.id} />
      <Fact term="Type">{TYPE_LABELS[c.type]}</Fact>
      {c.type === 'oidc' ? (
        <>
          <Fact term="Issuer" code={c.oidc.issuer} />
          <Fact term="Client id" code={c.oidc.client_id} />
          <Fact term="Client secret">Stored encrypted; never shown</Fact>
          <Fact term="Scopes">{c.oidc.scopes.join(' ')}</Fact>
          <Fact term="Google Workspace domain">
            {c.oidc.hosted_domain ?? <span class="muted">Not checked</span>}
          </Fact>
          <Fact term="ID-JAGs">
            {c.oidc.accept_id_jag ? 'Accepted (Enterprise-Managed Authorization)' : 'Not accepted'}
          </Fact>
        </>
      ) : (
        <>
          <Fact term="IdP entity id" code={c.saml.idp_entity_id} />
          <Fact term="IdP sign-in URL" code={c.saml.sso_url} />
          <Fact term="Signing certificates">{c.saml.certificates.length}</Fact>
        </>
      )}
      <Fact term="Email domains">
        {c.domains.length === 0 ? <span class="muted">None</span> : c.domains.join(', ')}
      </Fact>
      <Fact term="New users">
        {c.jit
          ? c.jit_any_domain
            ? 'Created on their first sign-in, at any address no other connection claims'
            : 'Created on their first sign-in, at addresses in its domains'
          : 'Existing accounts only'}
      </Fact>
      <Fact term="Default roles">
        {c.default_roles.length === 0 ? (
          <span class="muted">None</span>
        ) : (
          c.default_roles.map(roleName).join(', ')
        )}
      </Fact>
      <Fact term="Created">{when(c.created_at)}</Fact>
      <Fact term="Changed">{when(c.updated_at)}</Fact>
    </dl>
  );
}

function EditConnection({
  org,
  connection,
  roles,
  news,
  onSaved,
}: {
  org: Org;
  connection: Connection;
  roles: UserRole[];
  news: string | null;
  onSaved: () => void;
}) {
  // Drawn from the stored connection: the client secret and certificate fields start blank.
  const { draft, set, saving } = useEditDraft(() => draftOf(connection), onSaved, news);
  return (
    <EditPanel
      id="edit-connection"
      title="Edit connection"
      state={saving}
      onSubmit={() => {
        const changes = changesOf(connection, draft);
        // The form is drawn again from what is stored (onSaved): the secret typed is gone from the page.
        return saving.save(changes, () =>
          ok(
            api.PATCH('/organizations/{org}/connections/{id}', {
              ...oneIn(org.slug, connection.id),
              body: changes,
            }),
          ),
        );
      }}
    >
      <ConnectionFields
        slug={org.slug}
        type={connection.type}
        draft={draft}
        set={set}
        roles={roles}
        editing
      />
    </EditPanel>
  );
}
