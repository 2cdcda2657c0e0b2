import { api, body, ok } from '../api/client.js';
import { oneIn } from '../api/params.js';
import type { Client, TrustedApp } from '../api/types.js';
import { DeletePanel } from '../components/confirm-panel.js';
import { Chips } from '../components/data-table.js';
import { DetailPage } from '../components/detail-page.js';
import { EditPanel, useEditDraft } from '../components/edit-panel.js';
import { Fact } from '../components/fact.js';
import { when } from '../format.js';
import { loadAll } from '../load-all.js';
import type { OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { sameList } from '../same-list.js';
import { useLoad } from '../use-load.js';
import {
  confidentialClients,
  draftOfTrustedApp,
  ID_JAG_LINE,
  type TrustedAppDraft,
  TrustedAppFields,
  trustedAppBody,
  trustedAppNews,
} from './trusted-app-bits.js';

type Org = OrgScreenProps['org'];

/** One trusted app: what it allows, changes, deletion. */
export function TrustedAppPage({ org, id }: { org: Org; id: string }) {
  const listHref = orgHref(org.slug, 'trusted-apps');
  const loaded = useLoad(
    () =>
      loadAll({
        app: body(api.GET('/organizations/{org}/trusted-apps/{id}', oneIn(org.slug, id))),
        clients: confidentialClients(org.slug),
      }),
    [org.slug, id],
  );
  return (
    <DetailPage
      loaded={loaded}
      href={listHref}
      back="All trusted apps"
      name={(data) => data.app.name}
      fallback="Trusted app"
      what="the trusted app"
      notes={<p class="muted">{ID_JAG_LINE}</p>}
    >
      {({ app, clients }) => (
        <>
          <Facts app={app} clients={clients} />
          <EditTrustedApp key={app.id} org={org} app={app} clients={clients} onSaved={loaded.reload} />
          <DeletePanel
            id="delete-trusted-app"
            title="Delete trusted app"
            question={`Delete the trusted app ${app.name}?`}
            remove={() => api.DELETE('/organizations/{org}/trusted-apps/{id}', oneIn(org.slug, app.id))}
            news={{ to: trustedAppNews, line: `Trusted app ${app.name} deleted.` }}
            href={listHref}
          >
            <p>
              Its clients get no more ID-JAGs for this audience. ID-JAGs already issued live out their few
              minutes. This cannot be undone.
            </p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

function Facts({ app, clients }: { app: TrustedApp; clients: Client[] }) {
  const clientName = (id: string) => clients.find((c) => c.client_id === id)?.client_name ?? id;
  return (
    <dl class="facts panel trusted-app-facts">
      <Fact term="Id" code={app.id} />
      <Fact term="Audience">
        <code class="url-wrap">{app.audience}</code>
      </Fact>
      <Fact term="Target client id" code={app.target_client_id} />
      <Fact term="Clients that may ask">
        {app.client_ids.length === 0 ? (
          <span class="muted">None</span>
        ) : (
          app.client_ids.map(clientName).join(', ')
        )}
      </Fact>
      <Fact term="Resources">
        {app.resources.length === 0 ? (
          <span class="muted">None</span>
        ) : (
          app.resources.map((r) => (
            <div key={r}>
              <code class="url-wrap">{r}</code>
            </div>
          ))
        )}
      </Fact>
      <Fact term="Scopes">
        {app.scopes.length === 0 ? <span class="muted">None</span> : <Chips values={app.scopes} />}
      </Fact>
      <Fact term="Created">{when(app.created_at)}</Fact>
      <Fact term="Changed">{when(app.updated_at)}</Fact>
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
    ...(sameList([...b.client_ids].sort(), [...a.client_ids].sort()) ? {} : { client_ids: b.client_ids }),
    ...(sameList(b.resources, a.resources) ? {} : { resources: b.resources }),
    ...(sameList(b.scopes, a.scopes) ? {} : { scopes: b.scopes }),
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
  const { draft, set, saving } = useEditDraft(() => draftOfTrustedApp(app), onSaved);
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
              ...oneIn(org.slug, app.id),
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
