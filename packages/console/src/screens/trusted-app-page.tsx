import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import type { Client, TrustedApp } from '../api/types.js';
import { ConfirmPanel } from '../components/confirm-panel.js';
import { Chips } from '../components/data-table.js';
import { EditPanel, useSave } from '../components/edit-panel.js';
import { Link } from '../components/link.js';
import { LoadNotice } from '../components/notices.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { useLoad } from '../use-load.js';
import {
  confidentialClients,
  draftOfTrustedApp,
  ID_JAG_LINE,
  type TrustedAppDraft,
  TrustedAppFields,
  thisTrustedApp,
  trustedAppBody,
  trustedAppNews,
} from './trusted-app-bits.js';

type Org = OrgScreenProps['org'];

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** One trusted app: what it allows, changes, deletion. */
export function TrustedAppPage({ org, id }: { org: Org; id: string }) {
  const loaded = useLoad(async () => {
    const [app, clients] = await Promise.all([
      body(api.GET('/organizations/{org}/trusted-apps/{id}', thisTrustedApp(org.slug, id))),
      confidentialClients(org.slug),
    ]);
    return { app, clients };
  }, [org.slug, id]);
  const app = loaded.state === 'ok' ? loaded.data.app : null;
  return (
    <>
      <p class="crumbs">
        <Link href={orgHref(org.slug, 'trusted-apps')}>← All trusted apps</Link>
      </p>
      <h1>{app ? app.name : 'Trusted app'}</h1>
      <p class="muted">{ID_JAG_LINE}</p>
      <LoadNotice loaded={loaded} what="the trusted app" />
      {loaded.state === 'ok' && app ? (
        <>
          <Facts app={app} clients={loaded.data.clients} />
          <EditTrustedApp
            key={app.id}
            org={org}
            app={app}
            clients={loaded.data.clients}
            onSaved={loaded.reload}
          />
          <DeleteTrustedApp org={org} app={app} />
        </>
      ) : null}
    </>
  );
}

function Facts({ app, clients }: { app: TrustedApp; clients: Client[] }) {
  const clientName = (id: string) => clients.find((c) => c.client_id === id)?.client_name ?? id;
  return (
    <dl class="facts panel trusted-app-facts">
      <dt>Id</dt>
      <dd>
        <code>{app.id}</code>
      </dd>
      <dt>Audience</dt>
      <dd>
        <code class="url-wrap">{app.audience}</code>
      </dd>
      <dt>Target client id</dt>
      <dd>
        <code>{app.target_client_id}</code>
      </dd>
      <dt>Clients that may ask</dt>
      <dd>
        {app.client_ids.length === 0 ? (
          <span class="muted">None</span>
        ) : (
          app.client_ids.map(clientName).join(', ')
        )}
      </dd>
      <dt>Resources</dt>
      <dd>
        {app.resources.length === 0 ? (
          <span class="muted">None</span>
        ) : (
          app.resources.map((r) => (
            <div key={r}>
              <code class="url-wrap">{r}</code>
            </div>
          ))
        )}
      </dd>
      <dt>Scopes</dt>
      <dd>{app.scopes.length === 0 ? <span class="muted">None</span> : <Chips values={app.scopes} />}</dd>
      <dt>Created</dt>
      <dd>{when(app.created_at)}</dd>
      <dt>Changed</dt>
      <dd>{when(app.updated_at)}</dd>
    </dl>
  );
}

/** Only what differs from the stored app: an untouched form changes nothing. */
function changesOf(a: TrustedApp, d: TrustedAppDraft): Record<string, unknown> {
  const b = trustedAppBody(d);
  return {
    ...(b.name === a.name ? {} : { name: b.name }),
    ...(b.audience === a.audience ? {} : { audience: b.audience }),
    ...(b.target_client_id === a.target_client_id ? {} : { target_client_id: b.target_client_id }),
    ...(same([...b.client_ids].sort(), [...a.client_ids].sort()) ? {} : { client_ids: b.client_ids }),
    ...(same(b.resources, a.resources) ? {} : { resources: b.resources }),
    ...(same(b.scopes, a.scopes) ? {} : { scopes: b.scopes }),
  };
}

function EditTrustedApp({
  org,
  app,
  clients,
  onSaved,
}: {
  org: Org;
  app: TrustedApp;
  clients: Client[];
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOfTrustedApp(app));
  const set = (change: Partial<TrustedAppDraft>) => setDraft((d) => ({ ...d, ...change }));
  const saving = useSave(onSaved);
  return (
    <EditPanel
      id="edit-trusted-app"
      title="Edit trusted app"
      state={saving}
      onSubmit={() => {
        const changes = changesOf(app, draft);
        return saving.save(changes, () =>
          ok(
            api.PATCH('/organizations/{org}/trusted-apps/{id}', {
              ...thisTrustedApp(org.slug, app.id),
              body: changes,
            }),
          ),
        );
      }}
    >
      <TrustedAppFields slug={org.slug} draft={draft} set={set} clients={clients} />
    </EditPanel>
  );
}

function DeleteTrustedApp({ org, app }: { org: Org; app: TrustedApp }) {
  return (
    <ConfirmPanel
      id="delete-trusted-app"
      title="Delete trusted app"
      question={`Delete the trusted app ${app.name}?`}
      onConfirm={async () => {
        await ok(api.DELETE('/organizations/{org}/trusted-apps/{id}', thisTrustedApp(org.slug, app.id)));
        trustedAppNews.set(`Trusted app ${app.name} deleted.`);
        navigate(orgHref(org.slug, 'trusted-apps'));
      }}
    >
      <p>
        Its clients get no more ID-JAGs for this audience. ID-JAGs already issued live out their few minutes.
        This cannot be undone.
      </p>
    </ConfirmPanel>
  );
}
