import { useState } from 'preact/hooks';
import { orgPath, post } from '../api/client.js';
import { allPages, getList } from '../api/lists.js';
import type { Connection, UserRole } from '../api/types.js';
import { Form, SelectField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useLoad } from '../use-load.js';
import {
  CommonFields,
  type ConnectionDraft,
  commonBody,
  emptyDraft,
  hostedDomainOf,
  justCreated,
  NameField,
  OidcFields,
  OwnersOnly,
  SamlFields,
  scopesOf,
  TYPE_LABELS,
  takeListNews,
} from './connection-fields.js';
import { ConnectionPage } from './connection-page.js';
import { TestConnection } from './connection-test.js';

type Org = OrgScreenProps['org'];

const listHref = (slug: string) => orgHref(slug, 'connections');

/** The org's enterprise sign-in connections (owners only, like the API), a page at a time. */
export function Connections({ org }: OrgScreenProps) {
  return canWrite(org) ? <ConnectionList org={org} /> : <OwnersOnly />;
}

/** `/connections/new` is the form for a new connection; any other id is that connection's page. */
export function ConnectionDetail({ org, id }: OrgScreenProps) {
  if (!canWrite(org)) return <OwnersOnly />;
  if (id === 'new') return <NewConnection org={org} />;
  return <ConnectionPage org={org} id={id ?? ''} />;
}

function ConnectionList({ org }: { org: Org }) {
  const { query } = useLocation();
  const page = query.get('page') ?? '0';
  const [news] = useState(takeListNews);
  const loaded = useLoad(
    () =>
      getList<Connection>(
        `${orgPath(org.slug, 'connections')}${page === '0' ? '' : `?page=${encodeURIComponent(page)}`}`,
      ),
    [org.slug, page],
  );
  const newHref = orgHref(org.slug, 'connections', 'new');
  return (
    <>
      <div class="page-head">
        <h1>Connections</h1>
        <Link href={newHref} class="button">
          New connection
        </Link>
      </div>
      <p class="muted">
        Enterprise sign-in: people of {org.name} sign in through their company’s identity provider, over
        OpenID Connect or SAML 2.0. The sign-in page shows a button for each connection, and sends an address
        in a domain a connection claims to it.
      </p>
      {news ? <Done>{news}</Done> : null}
      {loaded.state === 'loading' ? <Loading what="connections" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.entries.length === 0 ? (
        <EmptyState title="No connections yet">
          <p>
            Let people sign in with Okta, Microsoft Entra ID, Google Workspace or another identity provider:{' '}
            <Link href={newHref}>add the first connection</Link>.
          </p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.entries.length > 0 ? (
        <>
          <div class="table-wrap">
            <table class="stack">
              <caption class="visually-hidden">Connections</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Email domains</th>
                  <th scope="col">New users</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.entries.map((c) => (
                  <tr key={c.id}>
                    <td data-label="Name">
                      <Link href={orgHref(org.slug, 'connections', c.id)}>{c.name}</Link>
                    </td>
                    <td data-label="Type">{TYPE_LABELS[c.type]}</td>
                    <td data-label="Email domains">
                      {c.domains.length === 0 ? <span class="muted">—</span> : c.domains.join(', ')}
                    </td>
                    <td data-label="New users">
                      {c.jit ? 'Created on first sign-in' : 'Existing accounts only'}
                    </td>
                    <td data-label="Created">{when(c.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Pages of connections"
            links={loaded.data.links}
            onGo={(path) => {
              const to = new URL(path, location.origin).searchParams.get('page') ?? '0';
              navigate(to === '0' ? listHref(org.slug) : `${listHref(org.slug)}?page=${to}`);
            }}
          />
        </>
      ) : null}
    </>
  );
}

function NewConnection({ org }: { org: Org }) {
  const roles = useLoad(() => allPages<UserRole>(orgPath(org.slug, 'roles')), [org.slug]);
  return (
    <>
      <p class="crumbs">
        <Link href={listHref(org.slug)}>← All connections</Link>
      </p>
      <h1>New connection</h1>
      {roles.state === 'loading' ? <Loading what="the organization’s roles" /> : null}
      {roles.state === 'error' ? <ErrorNotice error={roles.error} /> : null}
      {roles.state === 'ok' ? <NewConnectionForm org={org} roles={roles.data} /> : null}
    </>
  );
}

const TYPES = [
  ['oidc', 'OpenID Connect (Okta, Entra ID, Google, …)'],
  ['saml', 'SAML 2.0'],
] as const;

/** What the API takes to create the connection the draft describes. */
function createBody(type: Connection['type'], d: ConnectionDraft) {
  if (type === 'oidc')
    return {
      type,
      ...commonBody(d),
      issuer: d.issuer.trim(),
      client_id: d.clientId.trim(),
      client_secret: d.clientSecret,
      scopes: scopesOf(d.scopes),
      hosted_domain: hostedDomainOf(d),
    };
  return {
    type,
    ...commonBody(d),
    ...(d.samlSource === 'metadata'
      ? { metadata_xml: d.metadataXml }
      : { idp_entity_id: d.entityId.trim(), sso_url: d.ssoUrl.trim(), certificate: d.certificate }),
  };
}

function NewConnectionForm({ org, roles }: { org: Org; roles: UserRole[] }) {
  const [type, setType] = useState<Connection['type']>('oidc');
  const [draft, setDraft] = useState(emptyDraft);
  const set = (change: Partial<ConnectionDraft>) => setDraft((d) => ({ ...d, ...change }));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <div class="panel">
      <Form
        label="New connection"
        onSubmit={async () => {
          setBusy(true);
          setError(null);
          try {
            const { data } = await post<Connection>(
              orgPath(org.slug, 'connections'),
              createBody(type, draft),
            );
            justCreated.add(data.id);
            navigate(orgHref(org.slug, 'connections', data.id), { replace: true });
          } catch (e) {
            setError(e);
            setBusy(false);
          }
        }}
      >
        <SelectField label="Type" name="type" value={type} options={TYPES} onChange={setType} />
        <NameField draft={draft} set={set} />
        {type === 'oidc' ? (
          <OidcFields draft={draft} set={set} editing={false} />
        ) : (
          <SamlFields draft={draft} set={set} editing={false} />
        )}
        <TestConnection slug={org.slug} type={type} draft={draft} />
        <CommonFields slug={org.slug} draft={draft} set={set} roles={roles} />
        <ErrorNotice error={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Create connection
          </button>
        </div>
      </Form>
    </div>
  );
}
