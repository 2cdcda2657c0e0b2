import { useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { serviceAccountsPage } from '../api/lists.js';
import { inOrg, oneIn } from '../api/params.js';
import type { CreatedServiceAccount, ServiceAccount, ServiceAccountScope } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Chips } from '../components/data-table.js';
import { CheckboxField, Form, TextField } from '../components/fields.js';
import { ListTable } from '../components/list-table.js';
import { Done, EmptyState, ErrorNotice } from '../components/notices.js';
import { forOwners } from '../components/page-head.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import type { OrgScreenProps } from '../org-context.js';
import { useAction } from '../use-action.js';
import { useListPage } from '../use-list-page.js';
import { usePage } from '../use-page.js';

/** The scopes a service account may hold (never users:impersonate), with what each lets it do. */
const SCOPES: readonly [ServiceAccountScope, string][] = [
  ['org:read', 'read settings, members, clients, users, keys and webhooks'],
  ['events:read', 'read the audit log'],
  ['org:write', 'create, change and delete them, rotate keys and secrets'],
];

/** A secret shown once: the account it belongs to, and whether it is new or rotated. */
interface Shown {
  clientId: string;
  name: string;
  secret: string;
  rotated: boolean;
}

/**
 * The org's service accounts (DESIGN §16): backends that call this organization's management API
 * with a client_credentials token. Owners only, like the API; each secret is shown once.
 */
export const ServiceAccounts = forOwners('Service accounts', AccountsOwnersOnly, AccountList);

function AccountsOwnersOnly() {
  return <p class="notice info">Only owners of this organization can see and change its service accounts.</p>;
}

function AccountList({ org }: { org: OrgScreenProps['org'] }) {
  const { page, go } = usePage();
  const [shown, setShown] = useState<Shown | null>(null);
  const [news, setNews] = useState<string | null>(null);
  const { error, run } = useAction();
  const loaded = useListPage(org.slug, page, serviceAccountsPage);
  const reload = loaded.reload;
  const account = (a: ServiceAccount) => oneIn(org.slug, a.client_id);

  const rotate = (a: ServiceAccount) =>
    run(async () => {
      const data = await body(api.POST('/organizations/{org}/service-accounts/{id}/secret', account(a)));
      setNews(null);
      setShown({ clientId: a.client_id, name: a.name, secret: data.client_secret, rotated: true });
    });
  const remove = (a: ServiceAccount) =>
    run(async () => {
      await ok(api.DELETE('/organizations/{org}/service-accounts/{id}', account(a)));
      setShown(null);
      setNews(`Service account ${a.name} deleted: its tokens no longer work.`);
      reload();
    });

  return (
    <>
      <h1>Service accounts</h1>
      <p class="muted">
        Backends that manage this organization through the management API, as themselves: each gets tokens
        with the client credentials grant at <code>{`${location.origin}/oauth/token`}</code>, for this
        organization only and with the scopes chosen here. What they do appears in the audit log under their
        client id.
      </p>
      {news ? <Done>{news}</Done> : null}
      <ErrorNotice error={error} />
      {shown ? (
        <>
          <p class="notice info">
            {shown.rotated ? 'New secret for' : 'Created'} <strong>{shown.name}</strong>, client id{' '}
            <code>{shown.clientId}</code>.{shown.rotated ? ' The old secret no longer works.' : ''}
          </p>
          <SecretOnce
            label={shown.rotated ? 'The new client secret' : 'The client secret'}
            value={shown.secret}
            onDismiss={() => setShown(null)}
          />
        </>
      ) : null}
      <h2>Accounts</h2>
      <ListTable
        loaded={loaded}
        what="service accounts"
        pager="Pages of service accounts"
        onGo={go}
        empty={
          <EmptyState title="No service accounts yet">
            <p>Create one below to let a backend manage this organization's users and settings.</p>
          </EmptyState>
        }
        caption="Service accounts"
        rowKey={(a) => a.client_id}
        columns={[
          { label: 'Name', cell: (a) => a.name },
          { label: 'Client id', cell: (a) => <code class="one-line">{a.client_id}</code> },
          { label: 'Scopes', cell: (a) => <Chips values={a.scopes} /> },
          { label: 'Secret issued', cell: (a) => when(a.secret_issued_at) },
          {
            label: 'Actions',
            cell: (a) => (
              <div class="row-actions">
                <ConfirmButton
                  question={`Give ${a.name} a new secret? The old one stops working.`}
                  confirmLabel="Rotate secret"
                  danger={false}
                  onConfirm={async () => {
                    await rotate(a);
                  }}
                >
                  Rotate secret
                </ConfirmButton>
                <ConfirmButton
                  question={`Delete ${a.name}? Its tokens stop working.`}
                  confirmLabel="Delete"
                  onConfirm={async () => {
                    await remove(a);
                  }}
                >
                  Delete
                </ConfirmButton>
              </div>
            ),
          },
        ]}
      />
      <CreateAccount
        slug={org.slug}
        onCreated={(created) => {
          setNews(null);
          setShown({
            clientId: created.client_id,
            name: created.name,
            secret: created.client_secret,
            rotated: false,
          });
          reload();
        }}
      />
    </>
  );
}

function CreateAccount({ slug, onCreated }: { slug: string; onCreated: (a: CreatedServiceAccount) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ServiceAccountScope[]>(['org:read']);
  const { error, busy, run } = useAction();
  const submit = async () => {
    if (busy) return;
    await run(async () => {
      const data = await body(
        api.POST('/organizations/{org}/service-accounts', {
          ...inOrg(slug),
          body: { name, scopes },
        }),
      );
      setName('');
      setScopes(['org:read']);
      onCreated(data);
    });
  };
  return (
    <section aria-labelledby="new-service-account">
      <h2 id="new-service-account">New service account</h2>
      <Form label="New service account" onSubmit={submit}>
        <TextField
          label="Name"
          value={name}
          onInput={setName}
          required
          hint="What your team calls the backend."
        />
        <fieldset class="choices">
          <legend>Scopes</legend>
          {SCOPES.map(([scope, meaning]) => (
            <CheckboxField
              key={scope}
              name="scope"
              label={scope}
              hint={meaning}
              checked={scopes.includes(scope)}
              onChange={(on) => setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)))}
            />
          ))}
          <p class="hint">
            A service account can never sign in as a user (no impersonation), invite anyone, or change or
            remove members: who the organization’s people are is decided by its owners.
          </p>
        </fieldset>
        <ErrorNotice error={error} />
        <button type="submit" disabled={busy}>
          Create service account
        </button>
      </Form>
    </section>
  );
}
