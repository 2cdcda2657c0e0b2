import { useState } from 'preact/hooks';
import { orgPath, post } from '../api/client.js';
import { getList } from '../api/lists.js';
import type { ApiResource } from '../api/types.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { duration, when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useLoad } from '../use-load.js';
import {
  IDENTIFIER_HINT,
  justCreated,
  OwnersOnly,
  TTL_HINT,
  takeListNews,
  ttlValue,
} from './resource-bits.js';
import { ResourcePage } from './resource-detail.js';
import { ScopeChips, ScopesEditor, useScopes } from './resource-scopes.js';

const listHref = (slug: string) => orgHref(slug, 'resources');

/** The org's API resources (owners only), a page at a time; the page is in the address. */
export function Resources({ org }: OrgScreenProps) {
  return canWrite(org) ? <ResourceList org={org} /> : <OwnersOnly />;
}

function ResourceList({ org }: { org: OrgScreenProps['org'] }) {
  const { query } = useLocation();
  const page = query.get('page') ?? '0';
  const [news] = useState(takeListNews);
  const loaded = useLoad(
    () =>
      getList<ApiResource>(
        `${orgPath(org.slug, 'resources')}${page === '0' ? '' : `?page=${encodeURIComponent(page)}`}`,
      ),
    [org.slug, page],
  );
  const newHref = orgHref(org.slug, 'resources', 'new');
  return (
    <>
      <div class="page-head">
        <h1>API resources</h1>
        <Link href={newHref} class="button">
          New resource
        </Link>
      </div>
      <p class="muted">
        Your own APIs and MCP servers. Each defines scopes; roles and machine clients are given them, and an
        access token asked for a resource is bound to it (its audience) and carries only the scopes granted.
      </p>
      {news ? <Done>{news}</Done> : null}
      {loaded.state === 'loading' ? <Loading what="API resources" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.entries.length === 0 ? (
        <EmptyState title="No API resources yet">
          <p>
            Protect an API or an MCP server with this organization:{' '}
            <Link href={newHref}>create the first resource</Link>.
          </p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.entries.length > 0 ? (
        <>
          <ResourceTable slug={org.slug} resources={loaded.data.entries} />
          <Pager
            label="Pages of API resources"
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

function ResourceTable({ slug, resources }: { slug: string; resources: ApiResource[] }) {
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption class="visually-hidden">API resources</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Identifier</th>
            <th scope="col">Scopes</th>
            <th scope="col">Token lifetime</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {resources.map((r) => (
            <tr key={r.id}>
              <td data-label="Name">
                <Link href={orgHref(slug, 'resources', r.id)}>{r.name}</Link>
              </td>
              <td data-label="Identifier">
                <code>{r.identifier}</code>
              </td>
              <td data-label="Scopes">
                <ScopeChips scopes={r.scopes} />
              </td>
              <td data-label="Token lifetime">{duration(r.access_token_ttl)}</td>
              <td data-label="Created">{when(r.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
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
          onSubmit={async () => {
            setBusy(true);
            setError(null);
            try {
              const { data } = await post<ApiResource>(orgPath(org.slug, 'resources'), {
                identifier: identifier.trim(),
                name,
                scopes: scopes.value(),
                ...ttlValue(ttl),
              });
              justCreated.add(data.id);
              navigate(orgHref(org.slug, 'resources', data.id), { replace: true });
            } catch (e) {
              setError(e);
              setBusy(false);
            }
          }}
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
          <TextField
            label="Name"
            name="name"
            value={name}
            onInput={setName}
            required
            hint="Shown on the consent page and in this console."
          />
          <ScopesEditor state={scopes} />
          <TextField
            label="Access token lifetime (seconds)"
            name="access_token_ttl"
            type="number"
            value={ttl}
            onInput={setTtl}
            hint={TTL_HINT}
          />
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
