import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { allRoles } from '../api/lists.js';
import { type Connection, connectionOf, type UserRole } from '../api/types.js';
import { ConfirmPanel } from '../components/confirm-panel.js';
import { CopyValue } from '../components/copy-value.js';
import { EditPanel, useSave } from '../components/edit-panel.js';
import { Link } from '../components/link.js';
import { Done, LoadNotice } from '../components/notices.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import {
  CommonFields,
  type ConnectionDraft,
  commonBody,
  connectionNews,
  draftOf,
  hostedDomainOf,
  justCreated,
  NameField,
  OidcFields,
  SamlFields,
  scopesOf,
  TYPE_LABELS,
} from './connection-fields.js';
import { TestConnection } from './connection-test.js';

type Org = OrgScreenProps['org'];

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** One connection: what to give the identity provider, its settings, changes, deletion. */
export function ConnectionPage({ org, id }: { org: Org; id: string }) {
  const [fresh] = useState(() => justCreated.delete(id));
  /** Said by the edit form that the save remounts (its key is the stored version). */
  const [saved, setSaved] = useState<string | null>(null);
  const loaded = useLoad(async () => {
    const [connection, roles] = await Promise.all([
      body(
        api.GET('/organizations/{org}/connections/{id}', { params: { path: { org: org.slug, id } } }),
      ).then(connectionOf),
      allRoles(org.slug),
    ]);
    return { connection, roles };
  }, [org.slug, id]);
  const connection = loaded.state === 'ok' ? loaded.data.connection : null;
  return (
    <>
      <p class="crumbs">
        <Link href={orgHref(org.slug, 'connections')}>← All connections</Link>
      </p>
      <h1>{connection ? connection.name : 'Connection'}</h1>
      {fresh ? <Done>Connection created. Give your identity provider the values below.</Done> : null}
      <LoadNotice loaded={loaded} what="the connection" />
      {loaded.state === 'ok' && connection ? (
        <>
          <ForTheProvider connection={connection} />
          <Facts connection={connection} roles={loaded.data.roles} />
          <EditConnection
            key={`${connection.id} ${connection.updated_at}`}
            org={org}
            connection={connection}
            roles={loaded.data.roles}
            news={saved}
            onSaved={() => {
              setSaved('Changes saved.');
              loaded.reload();
            }}
          />
          <DeleteConnection org={org} connection={connection} />
        </>
      ) : null}
    </>
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
      <dt>Id</dt>
      <dd>
        <code>{c.id}</code>
      </dd>
      <dt>Type</dt>
      <dd>{TYPE_LABELS[c.type]}</dd>
      {c.type === 'oidc' ? (
        <>
          <dt>Issuer</dt>
          <dd>
            <code>{c.oidc.issuer}</code>
          </dd>
          <dt>Client id</dt>
          <dd>
            <code>{c.oidc.client_id}</code>
          </dd>
          <dt>Client secret</dt>
          <dd>Stored encrypted; never shown</dd>
          <dt>Scopes</dt>
          <dd>{c.oidc.scopes.join(' ')}</dd>
          <dt>Google Workspace domain</dt>
          <dd>{c.oidc.hosted_domain ?? <span class="muted">Not checked</span>}</dd>
          <dt>ID-JAGs</dt>
          <dd>{c.oidc.accept_id_jag ? 'Accepted (Enterprise-Managed Authorization)' : 'Not accepted'}</dd>
        </>
      ) : (
        <>
          <dt>IdP entity id</dt>
          <dd>
            <code>{c.saml.idp_entity_id}</code>
          </dd>
          <dt>IdP sign-in URL</dt>
          <dd>
            <code>{c.saml.sso_url}</code>
          </dd>
          <dt>Signing certificates</dt>
          <dd>{c.saml.certificates.length}</dd>
        </>
      )}
      <dt>Email domains</dt>
      <dd>{c.domains.length === 0 ? <span class="muted">None</span> : c.domains.join(', ')}</dd>
      <dt>New users</dt>
      <dd>
        {c.jit
          ? c.jit_any_domain
            ? 'Created on their first sign-in, at any address no other connection claims'
            : 'Created on their first sign-in, at addresses in its domains'
          : 'Existing accounts only'}
      </dd>
      <dt>Default roles</dt>
      <dd>
        {c.default_roles.length === 0 ? (
          <span class="muted">None</span>
        ) : (
          c.default_roles.map(roleName).join(', ')
        )}
      </dd>
      <dt>Created</dt>
      <dd>{when(c.created_at)}</dd>
      <dt>Changed</dt>
      <dd>{when(c.updated_at)}</dd>
    </dl>
  );
}

/** Only what differs from the stored connection: an untouched form changes nothing. */
function changesOf(c: Connection, d: ConnectionDraft): Record<string, unknown> {
  const common = commonBody(d);
  const out: Record<string, unknown> = {
    ...(common.name === c.name ? {} : { name: common.name }),
    ...(same(common.domains, c.domains) ? {} : { domains: common.domains }),
    ...(common.jit === c.jit ? {} : { jit: common.jit }),
    ...(common.jit_any_domain === c.jit_any_domain ? {} : { jit_any_domain: common.jit_any_domain }),
    ...(same([...common.default_roles].sort(), [...c.default_roles].sort())
      ? {}
      : { default_roles: common.default_roles }),
  };
  if (c.type === 'oidc') {
    const scopes = scopesOf(d.scopes);
    return {
      ...out,
      ...(d.issuer.trim() === c.oidc.issuer ? {} : { issuer: d.issuer.trim() }),
      ...(d.clientId.trim() === c.oidc.client_id ? {} : { client_id: d.clientId.trim() }),
      ...(d.clientSecret === '' ? {} : { client_secret: d.clientSecret }),
      ...(same(scopes, c.oidc.scopes) ? {} : { scopes }),
      ...(hostedDomainOf(d) === c.oidc.hosted_domain ? {} : { hosted_domain: hostedDomainOf(d) }),
      ...(d.acceptIdJag === c.oidc.accept_id_jag ? {} : { accept_id_jag: d.acceptIdJag }),
    };
  }
  if (d.samlSource === 'metadata')
    return d.metadataXml.trim() === '' ? out : { ...out, metadata_xml: d.metadataXml };
  return {
    ...out,
    ...(d.entityId.trim() === c.saml.idp_entity_id ? {} : { idp_entity_id: d.entityId.trim() }),
    ...(d.ssoUrl.trim() === c.saml.sso_url ? {} : { sso_url: d.ssoUrl.trim() }),
    ...(d.certificate.trim() === '' ? {} : { certificate: d.certificate }),
  };
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
  const [draft, setDraft] = useState(() => draftOf(connection));
  const set = (change: Partial<ConnectionDraft>) => setDraft((d) => ({ ...d, ...change }));
  const saving = useSave(onSaved);
  const editing = { draft, set, editing: true };
  return (
    <EditPanel
      id="edit-connection"
      title="Edit connection"
      state={{ ...saving, saved: saving.saved ?? news }}
      onSubmit={() => {
        const changes = changesOf(connection, draft);
        // The form is drawn again from what is stored (onSaved): the secret typed is gone from the page.
        return saving.save(changes, () =>
          ok(
            api.PATCH('/organizations/{org}/connections/{id}', {
              params: { path: { org: org.slug, id: connection.id } },
              body: changes,
            }),
          ),
        );
      }}
    >
      <NameField draft={draft} set={set} />
      {connection.type === 'oidc' ? <OidcFields {...editing} /> : <SamlFields {...editing} />}
      <TestConnection slug={org.slug} type={connection.type} draft={draft} />
      <CommonFields slug={org.slug} draft={draft} set={set} roles={roles} />
    </EditPanel>
  );
}

function DeleteConnection({ org, connection }: { org: Org; connection: Connection }) {
  return (
    <ConfirmPanel
      id="delete-connection"
      title="Delete connection"
      question={`Delete the connection ${connection.name} for good?`}
      onConfirm={async () => {
        await ok(
          api.DELETE('/organizations/{org}/connections/{id}', {
            params: { path: { org: org.slug, id: connection.id } },
          }),
        );
        connectionNews.set(`Connection ${connection.name} deleted.`);
        navigate(orgHref(org.slug, 'connections'));
      }}
    >
      <p>
        Its people can no longer sign in through it. Their users stay, unlinked: they can sign in another way,
        or through a new connection. This cannot be undone.
      </p>
    </ConfirmPanel>
  );
}
