import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { resourcesPage } from '../api/lists.js';
import { inOrg } from '../api/params.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { EmptyState, ErrorNotice } from '../components/notices.js';
import { DetailHead, forOwners } from '../components/page-head.js';
import { duration, when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useAddressListPage } from '../use-list-page.js';
import {
  IDENTIFIER_HINT,
  justCreated,
  ResourceFields,
  ResourcesOwnersOnly,
  resourceNews,
  ttlValue,
} from './resource-bits.js';
import { ResourcePage } from './resource-detail.js';
import { ScopeChips, useScopes } from './resource-scopes.js';

const listHref = (slug: string) => orgHref(slug, 'resources');

/** The org's API resources (owners only), a page at a time; the page is in the address. */
export const Resources = forOwners('API resources', ResourcesOwnersOnly, ResourceList);

/** `/resources/new` is the form for a new resource; any other id is that resource's page. */
export const ResourceDetail = forOwners('API resources', ResourcesOwnersOnly, ({ org, id }) =>
  id === 'new' ? <NewResource org={org} /> : <ResourcePage org={org} id={id} />,
);

function ResourceList({ org }: { org: OrgScreenProps['org'] }) {
  const { loaded, go } = useAddressListPage(org.slug, 'resources', resourcesPage);
  const newHref = orgHref(org.slug, 'resources', 'new');
  return (
    <ListScreen
      title="API resources"
      action={{ href: newHref, label: 'New resource' }}
      news={resourceNews}
      intro={
        <>
          Your own APIs and MCP servers. Each defines scopes; roles and machine clients are given them, and an
          access token asked for a resource is bound to it (its audience) and carries only the scopes granted.
        </>
      }
    >
      <ListTable
        loaded={loaded}
        what="API resources"
        pager="Pages of API resources"
        onGo={go}
        empty={
          <EmptyState title="No API resources yet">
            <p>
              Protect an API or an MCP server with this organization:{' '}
              <Link href={newHref}>create the first resource</Link>.
            </p>
          </EmptyState>
        }
        caption="API resources"
        rowKey={(r) => r.id}
        columns={[
          { label: 'Name', cell: (r) => <Link href={orgHref(org.slug, 'resources', r.id)}>{r.name}</Link> },
          { label: 'Identifier', cell: (r) => <code>{r.identifier}</code> },
          { label: 'Scopes', cell: (r) => <ScopeChips scopes={r.scopes} /> },
          { label: 'Token lifetime', cell: (r) => duration(r.access_token_ttl) },
          { label: 'Created', cell: (r) => when(r.created_at) },
        ]}
      />
    </ListScreen>
  );
}

function NewResource({ org }: { org: OrgScreenProps['org'] }) {
  const [identifier, setIdentifier] = useState('https://');
  const [name, setName] = useState('');
  const scopes = useScopes([{ name: '', description: '' }]);
  const [ttl, setTtl] = useState('900');
  const { error, busy, run } = useAction();
  return (
    <>
      <DetailHead href={listHref(org.slug)} back="All API resources" title="New API resource" />
      <div class="panel">
        <ErrorNotice error={error} />
        <Form
          label="New API resource"
          onSubmit={() =>
            run(async () => {
              const data = await body(
                api.POST('/organizations/{org}/resources', {
                  ...inOrg(org.slug),
                  body: { identifier: identifier.trim(), name, scopes: scopes.value(), ...ttlValue(ttl) },
                }),
              );
              justCreated.add(data.id);
              navigate(orgHref(org.slug, 'resources', data.id), { replace: true });
            })
          }
        >
          <TextField
            label="Identifier"
            name="identifier"
            type="url"
            value={identifier}
            onInput={setIdentifier}
            required
            hint={IDENTIFIER_HINT}
          />
          <ResourceFields name={name} setName={setName} scopes={scopes} ttl={ttl} setTtl={setTtl} />
          <div class="actions">
            <button type="submit" disabled={busy}>
              Create resource
            </button>
          </div>
        </Form>
      </div>
    </>
  );
}
