import { useState } from 'preact/hooks';
import { del, get, orgPath, patch } from '../api/client.js';
import type { ApiResource, ResourceScope } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import { duration, when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import { justCreated, setListNews, TTL_HINT, ttlValue } from './resource-bits.js';
import { ScopesEditor, useScopes } from './resource-scopes.js';

type Org = OrgScreenProps['org'];

/** One API resource: what it is, its scopes in the owner's words, changes, deletion. */
export function ResourcePage({ org, id }: { org: Org; id: string }) {
  const [fresh] = useState(() => justCreated.delete(id));
  const loaded = useLoad(
    () => get<ApiResource>(orgPath(org.slug, 'resources', id)).then((a) => a.data),
    [org.slug, id],
  );
  const resource = loaded.state === 'ok' ? loaded.data : null;
  return (
    <>
      <p class="crumbs">
        <Link href={orgHref(org.slug, 'resources')}>← All API resources</Link>
      </p>
      <h1>{resource ? resource.name : 'API resource'}</h1>
      {fresh ? <Done>Resource created.</Done> : null}
      {loaded.state === 'loading' ? <Loading what="the API resource" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {resource ? (
        <>
          <Facts resource={resource} />
          <EditResource key={resource.id} org={org} resource={resource} onSaved={loaded.reload} />
          <DeleteResource org={org} resource={resource} />
        </>
      ) : null}
    </>
  );
}

function Facts({ resource }: { resource: ApiResource }) {
  return (
    <div class="panel">
      <dl class="facts resource-facts">
        <dt>Id</dt>
        <dd>
          <code>{resource.id}</code>
        </dd>
        <dt>Identifier</dt>
        <dd>
          <code>{resource.identifier}</code>
        </dd>
        <dt>Access tokens last</dt>
        <dd>
          {duration(resource.access_token_ttl)} ({resource.access_token_ttl} seconds)
        </dd>
        <dt>Created</dt>
        <dd>{when(resource.created_at)}</dd>
      </dl>
      <ScopeTable scopes={resource.scopes} />
    </div>
  );
}

function ScopeTable({ scopes }: { scopes: ResourceScope[] }) {
  if (scopes.length === 0) return <p class="muted">No scopes: tokens for this resource carry none.</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="diff-caption">Scopes, as the consent page describes them</caption>
        <thead>
          <tr>
            <th scope="col">Scope</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {scopes.map((s) => (
            <tr key={s.name}>
              <td>
                <code>{s.name}</code>
              </td>
              <td>{s.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Name, scopes and token lifetime: only what changed is sent (the identifier never changes). */
function EditResource({ org, resource, onSaved }: { org: Org; resource: ApiResource; onSaved: () => void }) {
  const [name, setName] = useState(resource.name);
  const scopes = useScopes(resource.scopes);
  const [ttl, setTtl] = useState(String(resource.access_token_ttl));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="panel" aria-labelledby="edit-resource">
      <h2 id="edit-resource">Edit resource</h2>
      <ErrorNotice error={error} />
      {saved ? <Done>{saved}</Done> : null}
      <Form
        label="Edit resource"
        onSubmit={async () => {
          setError(null);
          setSaved(null);
          const lifetime = ttlValue(ttl);
          const changes = {
            ...(name === resource.name ? {} : { name }),
            ...(same(scopes.value(), resource.scopes) ? {} : { scopes: scopes.value() }),
            ...(lifetime.access_token_ttl === resource.access_token_ttl ? {} : lifetime),
          };
          if (Object.keys(changes).length === 0) {
            setSaved('Nothing changed: there was nothing to save.');
            return;
          }
          setBusy(true);
          try {
            await patch<ApiResource>(orgPath(org.slug, 'resources', resource.id), changes);
            setSaved('Changes saved.');
            onSaved();
          } catch (e) {
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
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
            Save changes
          </button>
        </div>
      </Form>
    </section>
  );
}

function DeleteResource({ org, resource }: { org: Org; resource: ApiResource }) {
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="panel" aria-labelledby="delete-resource">
      <h2 id="delete-resource">Delete resource</h2>
      <p>
        Deleting removes its scopes from every role and machine client, and apps can no longer ask tokens for
        it. Access tokens already issued for it stay valid until they expire. This cannot be undone.
      </p>
      <ErrorNotice error={error} />
      <ConfirmButton
        question={`Delete ${resource.name} for good?`}
        confirmLabel="Yes, delete it"
        onConfirm={async () => {
          setError(null);
          try {
            await del(orgPath(org.slug, 'resources', resource.id));
            setListNews(`API resource ${resource.name} deleted.`);
            navigate(orgHref(org.slug, 'resources'));
          } catch (e) {
            setError(e);
          }
        }}
      >
        Delete resource
      </ConfirmButton>
    </section>
  );
}
