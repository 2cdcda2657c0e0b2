import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { oneIn } from '../api/params.js';
import type { ApiResource, ResourceScope } from '../api/types.js';
import { DeletePanel } from '../components/confirm-panel.js';
import { DataTable } from '../components/data-table.js';
import { DetailPage } from '../components/detail-page.js';
import { EditPanel, useSave } from '../components/edit-panel.js';
import { Fact } from '../components/fact.js';
import { Done } from '../components/notices.js';
import { duration, when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { justCreated, ResourceFields, resourceNews, ttlValue } from './resource-bits.js';
import { useScopes } from './resource-scopes.js';

type Org = OrgScreenProps['org'];

/** One API resource: what it is, its scopes in the owner's words, changes, deletion. */
export function ResourcePage({ org, id }: { org: Org; id: string }) {
  const listHref = orgHref(org.slug, 'resources');
  const [fresh] = useState(() => justCreated.delete(id));
  const loaded = useLoad(
    () => body(api.GET('/organizations/{org}/resources/{id}', oneIn(org.slug, id))),
    [org.slug, id],
  );
  return (
    <DetailPage
      loaded={loaded}
      href={listHref}
      back="All API resources"
      name={(resource) => resource.name}
      fallback="API resource"
      what="the API resource"
      notes={fresh ? <Done>Resource created.</Done> : null}
    >
      {(resource) => (
        <>
          <Facts resource={resource} />
          <EditResource key={resource.id} org={org} resource={resource} onSaved={loaded.reload} />
          <DeletePanel
            id="delete-resource"
            title="Delete resource"
            question={`Delete ${resource.name} for good?`}
            remove={() => api.DELETE('/organizations/{org}/resources/{id}', oneIn(org.slug, resource.id))}
            news={{ to: resourceNews, line: `API resource ${resource.name} deleted.` }}
            href={listHref}
          >
            <p>
              Deleting removes its scopes from every role and machine client, and apps can no longer ask
              tokens for it. Access tokens already issued for it stay valid until they expire. This cannot be
              undone.
            </p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

function Facts({ resource }: { resource: ApiResource }) {
  return (
    <div class="panel">
      <dl class="facts resource-facts">
        <Fact term="Id" code={resource.id} />
        <Fact term="Identifier" code={resource.identifier} />
        <Fact term="Access tokens last">
          {duration(resource.access_token_ttl)} ({resource.access_token_ttl} seconds)
        </Fact>
        <Fact term="Created">{when(resource.created_at)}</Fact>
      </dl>
      <ScopeTable scopes={resource.scopes} />
    </div>
  );
}

function ScopeTable({ scopes }: { scopes: ResourceScope[] }) {
  if (scopes.length === 0) return <p class="muted">No scopes: tokens for this resource carry none.</p>;
  return (
    <DataTable
      class=""
      caption="Scopes, as the consent page describes them"
      captionClass="diff-caption"
      rows={scopes}
      rowKey={(s) => s.name}
      columns={[
        { label: 'Scope', cell: (s) => <code>{s.name}</code> },
        { label: 'Description', cell: (s) => s.description },
      ]}
    />
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Name, scopes and token lifetime: only what changed is sent (the identifier never changes). */
function EditResource({ org, resource, onSaved }: { org: Org; resource: ApiResource; onSaved: () => void }) {
  const [name, setName] = useState(resource.name);
  const scopes = useScopes(resource.scopes);
  const [ttl, setTtl] = useState(String(resource.access_token_ttl));
  const saving = useSave(onSaved);
  return (
    <EditPanel
      id="edit-resource"
      title="Edit resource"
      state={saving}
      onSubmit={() => {
        const lifetime = ttlValue(ttl);
        const changes = {
          ...(name === resource.name ? {} : { name }),
          ...(same(scopes.value(), resource.scopes) ? {} : { scopes: scopes.value() }),
          ...(lifetime.access_token_ttl === resource.access_token_ttl ? {} : lifetime),
        };
        return saving.save(changes, () =>
          ok(
            api.PATCH('/organizations/{org}/resources/{id}', {
              ...oneIn(org.slug, resource.id),
              body: changes,
            }),
          ),
        );
      }}
    >
      <ResourceFields name={name} setName={setName} scopes={scopes} ttl={ttl} setTtl={setTtl} />
    </EditPanel>
  );
}
