import { useId, useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { allClients } from '../api/lists.js';
import { oneIn } from '../api/params.js';
import type { Client, Impersonation, OrganizationOfCaller, User } from '../api/types.js';
import { Form, SelectField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';

/**
 * The clients an owner can impersonate into: confidential ones using the code flow, with a redirect
 * URI. A public client would need a PKCE code_challenge, which only the app itself can make (it
 * keeps the verifier), so the console cannot start one for it.
 */
async function targetClients(slug: string): Promise<Client[]> {
  return (await allClients(slug)).filter(
    (c) =>
      c.type === 'confidential' && c.redirect_uris.length > 0 && c.grant_types.includes('authorization_code'),
  );
}

/** "Impersonate": a one-time link that signs a browser in to a client as this user, with a reason. */
export function Impersonate({ org, user }: { org: OrganizationOfCaller; user: User }) {
  const loaded = useLoad(() => targetClients(org.slug), [org.slug]);
  return (
    <section class="panel user-panel" aria-labelledby="user-impersonate-title">
      <h2 id="user-impersonate-title">Impersonate</h2>
      <p>
        Act as this user to see what they see: you get a one-time link that signs a browser in to a client as
        them. The reason and your name go into the audit log.
      </p>
      {loaded.state === 'loading' ? <Loading what="clients" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.length === 0 ? (
        <EmptyState title="No client to sign in to.">
          <p>
            Impersonation signs the user in to a confidential client at one of its redirect URIs. Create a
            confidential client with a redirect URI under{' '}
            <Link href={orgHref(org.slug, 'clients')}>Clients</Link>, then come back.
          </p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.length > 0 ? (
        <ImpersonateForm slug={org.slug} user={user} clients={loaded.data} />
      ) : null}
    </section>
  );
}

function ImpersonateForm({ slug, user, clients }: { slug: string; user: User; clients: Client[] }) {
  const [reason, setReason] = useState('');
  const [clientId, setClientId] = useState(clients[0]?.client_id ?? '');
  const client = clients.find((c) => c.client_id === clientId) ?? clients[0];
  const [redirectUri, setRedirectUri] = useState(client?.redirect_uris[0] ?? '');
  const { error, busy, run } = useAction();
  const [started, setStarted] = useState<Impersonation | null>(null);
  const uris = client?.redirect_uris ?? [];
  const uri = uris.includes(redirectUri) ? redirectUri : (uris[0] ?? '');
  return (
    <>
      {started ? <OneTimeLink started={started} client={client} onDismiss={() => setStarted(null)} /> : null}
      <ErrorNotice error={error} />
      <Form
        label={`Impersonate ${user.email}`}
        onSubmit={() => {
          setStarted(null);
          return run(async () => {
            const data = await body(
              api.POST('/organizations/{org}/users/{id}/impersonation', {
                ...oneIn(slug, user.id),
                body: { reason, client_id: client?.client_id ?? '', redirect_uri: uri },
              }),
            );
            setStarted(data);
          });
        }}
      >
        <ReasonField value={reason} onInput={setReason} />
        <SelectField
          label="Client to sign in to"
          name="client_id"
          value={client?.client_id ?? ''}
          options={clients.map((c) => [c.client_id, `${c.client_name} (${c.client_id})`] as const)}
          onChange={(id) => {
            setClientId(id);
            setRedirectUri(clients.find((c) => c.client_id === id)?.redirect_uris[0] ?? '');
          }}
        />
        <p class="hint user-client-hint">
          Only confidential clients with a redirect URI are listed: a public client’s sign-in needs a PKCE
          code challenge, which only the app itself can make.
        </p>
        <SelectField
          label="Redirect URI"
          name="redirect_uri"
          value={uri}
          options={uris.map((u) => [u, u] as const)}
          onChange={setRedirectUri}
        />
        <div>
          <button type="submit" disabled={busy}>
            Create one-time link
          </button>
        </div>
      </Form>
    </>
  );
}

/** Why the owner acts as the user: the API requires it (and says so when it is missing). */
function ReasonField({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>Reason (required)</label>
      <textarea
        id={id}
        name="reason"
        rows={3}
        maxLength={500}
        class="user-reason"
        aria-required="true"
        aria-describedby={`${id}-hint`}
        value={value}
        onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)}
      />
      <p id={`${id}-hint`} class="hint">
        Why you act as this user, such as a support ticket. Up to 500 characters; recorded in the audit log.
      </p>
    </div>
  );
}

function OneTimeLink({
  started,
  client,
  onDismiss,
}: {
  started: Impersonation;
  client: Client | undefined;
  onDismiss: () => void;
}) {
  return (
    <div class="user-link">
      <SecretOnce label="One-time sign-in link" value={started.url} onDismiss={onDismiss} />
      <p>
        It works once, until <strong>{when(started.expires_at)}</strong>: whoever opens it is signed in to{' '}
        {client ? client.client_name : started.client_id} as this user. Open it in a private window to keep
        your own sign-in apart.
      </p>
      <p>
        <a class="button" href={started.url} target="_blank" rel="noopener noreferrer">
          Open
        </a>
      </p>
    </div>
  );
}
