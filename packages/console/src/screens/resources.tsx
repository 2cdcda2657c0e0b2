import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { listPage } from '../api/lists.js';
import { DataTable } from '../components/data-table.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { ListView } from '../components/list-view.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { PageHead } from '../components/page-head.js';
import { duration, when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { useAddressPage } from '../use-page.js';
import {
  IDENTIFIER_HINT,
  justCreated,
  OwnersOnly,
  ResourceFields,
  takeListNews,
  ttlValue,
} from './resource-bits.js';
import { ResourcePage } from './resource-detail.js';
import { ScopeChips, useScopes } from './resource-scopes.js';

const listHref = (slug: string) => orgHref(slug, 'resources');

/** The org's API resources (owners only), a page at a time; the page is in the address. */
export function Resources({ org }: OrgScreenProps) {
  return canWrite(org) ? <ResourceList org={org} /> : <OwnersOnly />;
}

function ResourceList({ org }: { org: OrgScreenProps['org'] }) {
  const { page, go } = useAddressPage(listHref(org.slug));
  const [news] = useState(takeListNews);
  const loaded = useLoad(
    () =>
      listPage(
        api.GET('/organizations/{org}/resources', { params: { path: { org: org.slug }, query: { page } } }),
      ),
    [org.slug, page],
  );
  const newHref = orgHref(org.slug, 'resources', 'new');
  return (
    <>
      <PageHead title="API resources" action={{ href: newHref, label: 'New resource' }} />
      <p class="muted">
        Your own APIs and MCP servers. Each defines scopes; roles and machine clients are given them, and an
        access token asked for a resource is bound to it (its audience) and carries only the scopes granted.
      </p>
      {news ? <Done>{news}</Done> : null}
      <ListView
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
      >
        {(resources) => (
          <DataTable
            caption="API resources"
            rows={resources}
            rowKey={(r) => r.id}
            columns={[
              {
                label: 'Name',
                cell: (r) => <Link href={orgHref(org.slug, 'resources', r.id)}>{r.name}</Link>,
              },
              { label: 'Identifier', cell: (r) => <code>{r.identifier}</code> },
              { label: 'Scopes', cell: (r) => <ScopeChips scopes={r.scopes} /> },
              { label: 'Token lifetime', cell: (r) => duration(r.access_token_ttl) },
              { label: 'Created', cell: (r) => when(r.created_at) },
            ]}
          />
        )}
      </ListView>
    </>
  );
}

/** `/resources/new` is the form for a new resource; any other id is that resource's page. */
export function ResourceDetail({ org, id }: OrgScreenProps) {
  if (!canWrite(org)) return <OwnersOnly />;
  if (id === 'new') return <NewResource org={org} />;
  return <ResourcePage org={org} id={id ?? ''} />;
}

function NewResource({ org }: { org: OrgScreenProps['org'] }) {
  const [identifier, setIdentifier] = useState('https://');
  const [name, setName] = useState('');
  const scopes = useScopes([{ name: '', description: '' }]);
  const [ttl, setTtl] = useState('900');
  const { error, busy, run } = useAction();
  return (
    <>
      <p class="crumbs">
        <Link href={listHref(org.slug)}>← All API resources</Link>
      </p>
      <h1>New API resource</h1>
      <div class="panel">
        <ErrorNotice error={error} />
        <Form
          label="New API resource"
          onSubmit={() =>
            run(async () => {
              const data = await body(
                api.POST('/organizations/{org}/resources', {
                  params: { path: { org: org.slug } },
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
