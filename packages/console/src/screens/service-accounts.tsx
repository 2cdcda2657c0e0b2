import { useState } from 'preact/hooks';
import { del, get, orgPath, post } from '../api/client.js';
import type { CreatedServiceAccount, ServiceAccount, ServiceAccountScope } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CheckboxField, Form, TextField } from '../components/fields.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { useLoad } from '../use-load.js';

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
export function ServiceAccounts({ org }: OrgScreenProps) {
  if (!canWrite(org)) {
    return (
      <>
        <h1>Service accounts</h1>
        <p class="notice info">Only owners of this organization can see and change its service accounts.</p>
      </>
    );
  }
  return <AccountList org={org} />;
}

function AccountList({ org }: { org: OrgScreenProps['org'] }) {
  const first = orgPath(org.slug, 'service-accounts');
  const [path, setPath] = useState(first);
  const [version, setVersion] = useState(0);
  const [shown, setShown] = useState<Shown | null>(null);
  const [news, setNews] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const loaded = useLoad(async () => {
    const { data, links } = await get<ServiceAccount[]>(path);
    return { accounts: data, links };
  }, [path, version]);
  const reload = () => setVersion((v) => v + 1);

  const rotate = async (a: ServiceAccount) => {
    setError(null);
    try {
      const { data } = await post<{ client_secret: string }>(
        orgPath(org.slug, 'service-accounts', a.client_id, 'secret'),
      );
      setNews(null);
      setShown({ clientId: a.client_id, name: a.name, secret: data.client_secret, rotated: true });
    } catch (e) {
      setError(e);
    }
  };
  const remove = async (a: ServiceAccount) => {
    setError(null);
    try {
      await del(orgPath(org.slug, 'service-accounts', a.client_id));
      setShown(null);
      setNews(`Service account ${a.name} deleted: its tokens no longer work.`);
      reload();
    } catch (e) {
      setError(e);
    }
  };

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
      {loaded.state === 'loading' ? <Loading what="service accounts" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.accounts.length === 0 ? (
        <EmptyState title="No service accounts yet">
          <p>Create one below to let a backend manage this organization's users and settings.</p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.accounts.length > 0 ? (
        <>
          <div class="table-wrap">
            <table class="stack">
              <caption class="visually-hidden">Service accounts</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Client id</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Secret issued</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.accounts.map((a) => (
                  <tr key={a.client_id}>
                    <td data-label="Name">{a.name}</td>
                    <td data-label="Client id">
                      <code class="one-line">{a.client_id}</code>
                    </td>
                    <td data-label="Scopes">
                      <div>
                        {a.scopes.map((s) => (
                          <span key={s} class="grant">
                            {s}
                          </span>
                        ))}
                      </div>
                    </td>
                    <td data-label="Secret issued">{when(a.secret_issued_at)}</td>
                    <td data-label="Actions">
                      <div class="row-actions">
                        <ConfirmButton
                          question={`Give ${a.name} a new secret? The old one stops working.`}
                          confirmLabel="Rotate secret"
                          danger={false}
                          onConfirm={() => rotate(a)}
                        >
                          Rotate secret
                        </ConfirmButton>
                        <ConfirmButton
                          question={`Delete ${a.name}? Its tokens stop working.`}
                          confirmLabel="Delete"
                          onConfirm={() => remove(a)}
                        >
                          Delete
                        </ConfirmButton>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Pages of service accounts" links={loaded.data.links} onGo={setPath} />
        </>
      ) : null}
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const { data } = await post<CreatedServiceAccount>(orgPath(slug, 'service-accounts'), { name, scopes });
      setName('');
      setScopes(['org:read']);
      onCreated(data);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
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
