import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { allRoles, connectionsPage } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import type { Connection, UserRole } from '../api/types.js';
import { SelectField } from '../components/fields.js';
import { FormPanel } from '../components/form-panel.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { EmptyState, LoadNotice } from '../components/notices.js';
import { DetailHead, forOwners } from '../components/page-head.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useDraft } from '../use-draft.js';
import { useAddressListPage } from '../use-list-page.js';
import { useLoad } from '../use-load.js';
import {
  ConnectionFields,
  ConnectionsOwnersOnly,
  connectionNews,
  createBody,
  emptyDraft,
  justCreated,
  TYPE_LABELS,
} from './connection-fields.js';
import { ConnectionPage } from './connection-page.js';

type Org = OrgScreenProps['org'];

const listHref = (slug: string) => orgHref(slug, 'connections');

/** The org's enterprise sign-in connections (owners only, like the API), a page at a time. */
export const Connections = forOwners('Connections', ConnectionsOwnersOnly, ConnectionList);

/** `/connections/new` is the form for a new connection; any other id is that connection's page. */
export const ConnectionDetail = forOwners('Connections', ConnectionsOwnersOnly, ({ org, id }) =>
  id === 'new' ? <NewConnection org={org} /> : <ConnectionPage org={org} id={id} />,
);

function ConnectionList({ org }: { org: Org }) {
  const { loaded, go } = useAddressListPage(org.slug, 'connections', connectionsPage);
  const newHref = orgHref(org.slug, 'connections', 'new');
  return (
    <ListScreen
      title="Connections"
      action={{ href: newHref, label: 'New connection' }}
      news={connectionNews}
      intro={
        <>
          Enterprise sign-in: people of {org.name} sign in through their company’s identity provider, over
          OpenID Connect or SAML 2.0. The sign-in page shows a button for each connection, and sends an
          address in a domain a connection claims to it.
        </>
      }
    >
      <ListTable
        loaded={loaded}
        what="connections"
        pager="Pages of connections"
        onGo={go}
        empty={
          <EmptyState title="No connections yet">
            <p>
              Let people sign in with Okta, Microsoft Entra ID, Google Workspace or another identity provider:{' '}
              <Link href={newHref}>add the first connection</Link>.
            </p>
          </EmptyState>
        }
        caption="Connections"
        rowKey={(c) => c.id}
        columns={[
          { label: 'Name', cell: (c) => <Link href={orgHref(org.slug, 'connections', c.id)}>{c.name}</Link> },
          { label: 'Type', cell: (c) => TYPE_LABELS[c.type] },
          {
            label: 'Email domains',
            cell: (c) => (c.domains.length === 0 ? <span class="muted">—</span> : c.domains.join(', ')),
          },
          {
            label: 'New users',
            cell: (c) => (c.jit ? 'Created on first sign-in' : 'Existing accounts only'),
          },
          { label: 'Created', cell: (c) => when(c.created_at) },
        ]}
      />
    </ListScreen>
  );
}

function NewConnection({ org }: { org: Org }) {
  const roles = useLoad(() => allRoles(org.slug), [org.slug]);
  return (
    <>
      <DetailHead href={listHref(org.slug)} back="All connections" title="New connection" />
      <LoadNotice loaded={roles} what="the organization’s roles" />
      {roles.state === 'ok' ? <NewConnectionForm org={org} roles={roles.data} /> : null}
    </>
  );
}

const TYPES = [
  ['oidc', 'OpenID Connect (Okta, Entra ID, Google, …)'],
  ['saml', 'SAML 2.0'],
] as const;

function NewConnectionForm({ org, roles }: { org: Org; roles: UserRole[] }) {
  const [type, setType] = useState<Connection['type']>('oidc');
  const [draft, set] = useDraft(emptyDraft);
  const action = useAction();
  return (
    <FormPanel
      title="New connection"
      submit="Create connection"
      state={action}
      errorBelow
      onSubmit={() =>
        action.run(async () => {
          const data = await body(
            api.POST('/organizations/{org}/connections', {
              ...inOrg(org.slug),
              body: createBody(type, draft),
            }),
          );
          justCreated.add(data.id);
          navigate(orgHref(org.slug, 'connections', data.id), { replace: true });
        })
      }
    >
      <SelectField label="Type" name="type" value={type} options={TYPES} onChange={setType} />
      <ConnectionFields slug={org.slug} type={type} draft={draft} set={set} roles={roles} editing={false} />
    </FormPanel>
  );
}
