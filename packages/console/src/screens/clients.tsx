import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { del, get, orgPath, patch, post } from '../api/client.js';
import type { Client, CreateClientBody, CreatedClient, GrantType, UpdateClientBody } from '../api/types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { CheckboxField, Form, LinesField, linesOf, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, EmptyState, ErrorNotice, Loading } from '../components/notices.js';
import { Pager } from '../components/pager.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { navigate, orgHref, useLocation } from '../router.js';
import { useLoad } from '../use-load.js';
import { ClientPermissions } from './client-permissions.js';

/** Each grant type the API knows, in a few words: a type the document adds fails the typecheck here. */
const GRANT_MEANINGS: Record<GrantType, string> = {
  authorization_code: 'people sign in through the browser',
  refresh_token: 'sessions renew without signing in again',
  client_credentials: 'the app calls APIs as itself (confidential clients only)',
};
const GRANTS = Object.entries(GRANT_MEANINGS) as [GrantType, string][];

const REDIRECT_HINT = 'One per line: https, or http on localhost, 127.0.0.1 or [::1]; no fragment.';
const POST_LOGOUT_HINT = 'One per line, where sign-out may return to; same rules as redirect URIs.';
const ORIGINS_HINT =
  'Browser apps on these origins may call the token, revocation and userinfo endpoints (CORS). One per line, scheme://host[:port] with no path: https, or http on localhost, 127.0.0.1 or [::1]. Left empty: the origins of the redirect URIs.';

/**
 * A secret (or just the news) of a client this tab created a moment ago, for its page to show
 * once: kept in memory only, taken when read, so a reload no longer has it. `chosen`: the grant
 * types the API gave it when the form left them to the API.
 */
const justCreated = new Map<string, { secret?: string; chosen?: GrantType[] }>();
/** A line for the list to announce once (a client just deleted). */
let listNews: string | null = null;

const CREATED = 'The client secret';
const ROTATED = 'The new client secret';

const listHref = (slug: string) => orgHref(slug, 'clients');

function OwnersOnly() {
  return (
    <>
      <h1>Clients</h1>
      <p class="notice info">Only owners of this organization can see and change its clients.</p>
    </>
  );
}

/** The org's OAuth clients, a page at a time (the page is in the address, so Back returns to it). */
export function Clients({ org }: OrgScreenProps) {
  return canWrite(org) ? <ClientList org={org} /> : <OwnersOnly />;
}

function ClientList({ org }: { org: OrgScreenProps['org'] }) {
  const { query } = useLocation();
  const page = query.get('page') ?? '0';
  const [news] = useState(() => {
    const line = listNews;
    listNews = null;
    return line;
  });
  const loaded = useLoad(async () => {
    const { data, links } = await get<Client[]>(
      `${orgPath(org.slug, 'clients')}${page === '0' ? '' : `?page=${encodeURIComponent(page)}`}`,
    );
    return { clients: data, links };
  }, [org.slug, page]);
  const newHref = orgHref(org.slug, 'clients', 'new');
  return (
    <>
      <div class="page-head">
        <h1>Clients</h1>
        <Link href={newHref} class="button">
          New client
        </Link>
      </div>
      <p class="muted">
        The apps that sign people in with this organization, or call its APIs as themselves.
      </p>
      {news ? <Done>{news}</Done> : null}
      {loaded.state === 'loading' ? <Loading what="clients" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' && loaded.data.clients.length === 0 ? (
        <EmptyState title="No clients yet">
          <p>
            Register an app to let it sign people in: <Link href={newHref}>create the first client</Link>.
          </p>
        </EmptyState>
      ) : null}
      {loaded.state === 'ok' && loaded.data.clients.length > 0 ? (
        <>
          <ClientTable slug={org.slug} clients={loaded.data.clients} />
          <Pager
            label="Pages of clients"
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

function ClientTable({ slug, clients }: { slug: string; clients: Client[] }) {
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption class="visually-hidden">Clients</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Client id</th>
            <th scope="col">Type</th>
            <th scope="col">Grant types</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.client_id}>
              <td data-label="Name">
                <Link href={orgHref(slug, 'clients', c.client_id)}>{c.client_name}</Link>
              </td>
              <td data-label="Client id">
                <code class="one-line">{c.client_id}</code>
              </td>
              <td data-label="Type">{c.type === 'public' ? 'Public' : 'Confidential'}</td>
              <td data-label="Grant types">
                <div>
                  {c.grant_types.map((g) => (
                    <span key={g} class="grant">
                      {g}
                    </span>
                  ))}
                </div>
              </td>
              <td data-label="Created">{when(c.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `/clients/new` is the form for a new client; any other id is that client's page. */
export function ClientDetail({ org, id }: OrgScreenProps) {
  if (!canWrite(org)) return <OwnersOnly />;
  if (id === 'new') return <NewClient org={org} />;
  return <ClientPage org={org} id={id ?? ''} />;
}

/** Where the client's codes go and where sign-out may return to, one URI per line: the same on create and edit. */
function UriFields(v: {
  redirects: string;
  onRedirects: (value: string) => void;
  postLogout: string;
  onPostLogout: (value: string) => void;
}) {
  return (
    <>
      <LinesField
        label="Redirect URIs"
        name="redirect_uris"
        value={v.redirects}
        onInput={v.onRedirects}
        hint={REDIRECT_HINT}
      />
      <LinesField
        label="Post-logout redirect URIs"
        name="post_logout_redirect_uris"
        value={v.postLogout}
        onInput={v.onPostLogout}
        hint={POST_LOGOUT_HINT}
      />
    </>
  );
}

/** The grant types as checkboxes: `value` checked, a change gives the whole new list. */
function GrantTypesField({
  value,
  onChange,
  hint,
}: {
  value: readonly GrantType[];
  onChange: (grants: GrantType[]) => void;
  hint: string;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={id}>
      <legend>Grant types</legend>
      <p id={id} class="hint grants-hint">
        {hint}
      </p>
      {GRANTS.map(([grant, what]) => (
        <CheckboxField
          key={grant}
          label={grant}
          name="grant_types"
          checked={value.includes(grant)}
          hint={what}
          onChange={(on) =>
            onChange(GRANTS.map(([g]) => g).filter((g) => (g === grant ? on : value.includes(g))))
          }
        />
      ))}
    </fieldset>
  );
}

function NewClient({ org }: { org: OrgScreenProps['org'] }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<Client['type']>('confidential');
  const [redirects, setRedirects] = useState('');
  const [postLogout, setPostLogout] = useState('');
  const [origins, setOrigins] = useState('');
  /** The grant types the owner checked; none: the API chooses them (its answer shows which). */
  const [grants, setGrants] = useState<GrantType[]>([]);
  const [firstParty, setFirstParty] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const redirectUris = linesOf(redirects);
  return (
    <>
      <p class="crumbs">
        <Link href={listHref(org.slug)}>← All clients</Link>
      </p>
      <h1>New client</h1>
      <div class="panel">
        <ErrorNotice error={error} />
        <Form
          label="New client"
          onSubmit={async () => {
            setBusy(true);
            setError(null);
            try {
              const body: CreateClientBody = {
                client_name: name,
                type,
                redirect_uris: redirectUris,
                post_logout_redirect_uris: linesOf(postLogout),
                ...(linesOf(origins).length > 0 ? { allowed_origins: linesOf(origins) } : {}),
                ...(grants.length > 0 ? { grant_types: grants } : {}),
                first_party: firstParty,
              };
              const { data } = await post<CreatedClient>(orgPath(org.slug, 'clients'), body);
              justCreated.set(data.client_id, {
                ...(data.client_secret ? { secret: data.client_secret } : {}),
                ...(grants.length > 0 ? {} : { chosen: data.grant_types }),
              });
              navigate(orgHref(org.slug, 'clients', data.client_id), { replace: true });
            } catch (e) {
              setError(e);
              setBusy(false);
            }
          }}
        >
          <TextField
            label="Name"
            name="client_name"
            value={name}
            onInput={setName}
            required
            hint="Shown to people on the consent page."
          />
          <fieldset>
            <legend>Type</legend>
            <TypeChoice
              value="confidential"
              current={type}
              onPick={setType}
              label="Confidential"
              hint="A server-side app that can keep a secret; it gets a client secret."
            />
            <TypeChoice
              value="public"
              current={type}
              onPick={setType}
              label="Public"
              hint="A browser or mobile app that cannot keep a secret; it signs in with PKCE."
            />
          </fieldset>
          <UriFields
            redirects={redirects}
            onRedirects={setRedirects}
            postLogout={postLogout}
            onPostLogout={setPostLogout}
          />
          <LinesField
            label="Allowed origins"
            name="allowed_origins"
            value={origins}
            onInput={setOrigins}
            hint={ORIGINS_HINT}
          />
          <GrantTypesField
            value={grants}
            onChange={setGrants}
            hint={
              grants.length > 0
                ? 'You chose these grant types; they are sent as checked.'
                : 'Left unchecked, Tessera gives the client its default grant types for its type and redirect URIs, and its page shows which. authorization_code needs a redirect URI.'
            }
          />
          {grants.length > 0 ? (
            <div>
              <button type="button" class="link" onClick={() => setGrants([])}>
                Use the default grant types
              </button>
            </div>
          ) : null}
          <CheckboxField
            label="First party"
            name="first_party"
            checked={firstParty}
            onChange={setFirstParty}
            hint="The organization's own app: its sign-in asks no consent. Turn off for someone else's app, whose users are asked to consent."
          />
          <div class="actions">
            <button type="submit" disabled={busy}>
              Create client
            </button>
          </div>
        </Form>
      </div>
    </>
  );
}

function TypeChoice({
  value,
  current,
  onPick,
  label,
  hint,
}: {
  value: Client['type'];
  current: Client['type'];
  onPick: (type: Client['type']) => void;
  label: string;
  hint: string;
}) {
  const id = `client-type-${value}`;
  return (
    <div class="field checkbox">
      <input
        id={id}
        type="radio"
        name="type"
        value={value}
        checked={current === value}
        aria-describedby={`${id}-hint`}
        onChange={() => onPick(value)}
      />
      <label for={id}>{label}</label>
      <p id={`${id}-hint`} class="hint">
        {hint}
      </p>
    </div>
  );
}

function ClientPage({ org, id }: { org: OrgScreenProps['org']; id: string }) {
  const [fresh] = useState(() => {
    const news = justCreated.get(id);
    justCreated.delete(id);
    return news;
  });
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(
    fresh?.secret ? { label: CREATED, value: fresh.secret } : null,
  );
  const loaded = useLoad(
    () => get<Client>(orgPath(org.slug, 'clients', id)).then((a) => a.data),
    [org.slug, id],
  );
  const client = loaded.state === 'ok' ? loaded.data : null;
  const secretBox = useRef<HTMLDivElement>(null);
  // A secret made by rotation appears above: the focus goes to it, as it would to a new page.
  useEffect(() => {
    if (secret?.label === ROTATED) secretBox.current?.focus();
  }, [secret]);
  return (
    <>
      <p class="crumbs">
        <Link href={listHref(org.slug)}>← All clients</Link>
      </p>
      <h1>{client ? client.client_name : 'Client'}</h1>
      {fresh ? (
        <Done>
          Client created.
          {fresh.secret ? '' : ' It is a public client: it has no secret and signs in with PKCE.'}
          {fresh.chosen ? ` Tessera gave it the grant types ${fresh.chosen.join(', ')}.` : ''}
        </Done>
      ) : null}
      {secret ? (
        <div ref={secretBox} tabIndex={-1}>
          <SecretOnce label={secret.label} value={secret.value} onDismiss={() => setSecret(null)} />
        </div>
      ) : null}
      {loaded.state === 'loading' ? <Loading what="the client" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {client ? (
        <>
          <ClientFacts client={client} />
          <EditClient key={client.client_id} org={org} client={client} onSaved={loaded.reload} />
          {client.type === 'confidential' ? <ClientPermissions org={org} client={client} /> : null}
          {client.type === 'confidential' ? (
            <RotateSecret
              org={org}
              client={client}
              onRotated={(value) => setSecret({ label: ROTATED, value })}
            />
          ) : null}
          <DeleteClient org={org} client={client} />
        </>
      ) : null}
    </>
  );
}

function ClientFacts({ client }: { client: Client }) {
  return (
    <dl class="facts panel client-facts">
      <dt>Client id</dt>
      <dd>
        <code>{client.client_id}</code>
      </dd>
      <dt>Type</dt>
      <dd>
        {client.type === 'public'
          ? 'Public: no secret, signs in with PKCE'
          : 'Confidential: authenticates with its secret'}
      </dd>
      <dt>First party</dt>
      <dd>{client.first_party ? 'Yes: its sign-in asks no consent' : 'No: people are asked to consent'}</dd>
      <dt>Allowed origins</dt>
      <dd>
        {client.allowed_origins.length > 0
          ? client.allowed_origins.join(', ')
          : 'None: no browser app may call it'}
      </dd>
      {client.type === 'confidential' ? (
        <>
          <dt>Public keys</dt>
          <dd>{keysFact(client)}</dd>
        </>
      ) : null}
      <dt>Created</dt>
      <dd>{when(client.created_at)}</dd>
    </dl>
  );
}

/** How a confidential client's private_key_jwt keys are registered, in a few words. */
function keysFact(client: Client): string {
  if (client.jwks_uri !== undefined) return `Fetched from ${client.jwks_uri}`;
  if (client.jwks !== undefined) return `${client.jwks.keys.length} registered inline (private_key_jwt)`;
  return 'None: it authenticates with its secret only';
}

const JWKS_URI_HINT =
  'Optional. The https URL where this client publishes its public keys, to authenticate with a signed assertion (private_key_jwt) instead of its secret. Leave empty for none.';

const sameList = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);

function EditClient({
  org,
  client,
  onSaved,
}: {
  org: OrgScreenProps['org'];
  client: Client;
  onSaved: () => void;
}) {
  const [name, setName] = useState(client.client_name);
  const [redirects, setRedirects] = useState(client.redirect_uris.join('\n'));
  const [postLogout, setPostLogout] = useState(client.post_logout_redirect_uris.join('\n'));
  const [grants, setGrants] = useState<GrantType[]>(client.grant_types);
  /** The origins as typed; null until edited, so the field shows what the client has now (the default follows the redirect URIs). */
  const [origins, setOrigins] = useState<string | null>(null);
  const [jwksUri, setJwksUri] = useState(client.jwks_uri ?? '');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="panel" aria-labelledby="edit-client">
      <h2 id="edit-client">Edit client</h2>
      <ErrorNotice error={error} />
      {saved ? <Done>{saved}</Done> : null}
      <Form
        label="Edit client"
        onSubmit={async () => {
          setError(null);
          setSaved(null);
          const redirectUris = linesOf(redirects);
          const postLogoutUris = linesOf(postLogout);
          const allowedOrigins = origins === null ? client.allowed_origins : linesOf(origins);
          const changes: UpdateClientBody = {
            ...(name === client.client_name ? {} : { client_name: name }),
            ...(sameList(redirectUris, client.redirect_uris) ? {} : { redirect_uris: redirectUris }),
            ...(sameList(postLogoutUris, client.post_logout_redirect_uris)
              ? {}
              : { post_logout_redirect_uris: postLogoutUris }),
            ...(sameList([...grants].sort(), [...client.grant_types].sort()) ? {} : { grant_types: grants }),
            // Emptied: back to the default, the redirect URIs' origins.
            ...(sameList(allowedOrigins, client.allowed_origins)
              ? {}
              : { allowed_origins: allowedOrigins.length > 0 ? allowedOrigins : null }),
            // Emptied: no key set URL.
            ...(jwksUri.trim() === (client.jwks_uri ?? '') ? {} : { jwks_uri: jwksUri.trim() || null }),
          };
          if (Object.keys(changes).length === 0) {
            setSaved('Nothing changed: there was nothing to save.');
            return;
          }
          setBusy(true);
          try {
            await patch<Client>(orgPath(org.slug, 'clients', client.client_id), changes);
            setOrigins(null);
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
          name="client_name"
          value={name}
          onInput={setName}
          required
          hint="Shown to people on the consent page."
        />
        <UriFields
          redirects={redirects}
          onRedirects={setRedirects}
          postLogout={postLogout}
          onPostLogout={setPostLogout}
        />
        <LinesField
          label="Allowed origins"
          name="allowed_origins"
          value={origins ?? client.allowed_origins.join('\n')}
          onInput={setOrigins}
          hint={ORIGINS_HINT}
        />
        {client.type === 'confidential' && client.jwks === undefined ? (
          <TextField
            label="Public key set URL (jwks_uri)"
            name="jwks_uri"
            type="url"
            value={jwksUri}
            onInput={setJwksUri}
            hint={JWKS_URI_HINT}
          />
        ) : null}
        <GrantTypesField
          value={grants}
          onChange={setGrants}
          hint="What the client may ask the token endpoint for. authorization_code needs a redirect URI."
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

function RotateSecret({
  org,
  client,
  onRotated,
}: {
  org: OrgScreenProps['org'];
  client: Client;
  onRotated: (secret: string) => void;
}) {
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="panel" aria-labelledby="client-secret">
      <h2 id="client-secret">Client secret</h2>
      <p>
        The secret is stored as a hash and cannot be shown again. Rotating makes a new one, shown once; the
        old secret stops working at once, so put the new one in the app's configuration right away.
      </p>
      <ErrorNotice error={error} />
      <ConfirmButton
        question="Make a new secret? The old one stops working immediately."
        confirmLabel="Yes, rotate the secret"
        onConfirm={async () => {
          setError(null);
          try {
            const { data } = await post<{ client_secret: string }>(
              `${orgPath(org.slug, 'clients', client.client_id)}/secret`,
            );
            onRotated(data.client_secret);
          } catch (e) {
            setError(e);
          }
        }}
      >
        Rotate secret
      </ConfirmButton>
    </section>
  );
}

function DeleteClient({ org, client }: { org: OrgScreenProps['org']; client: Client }) {
  const [error, setError] = useState<unknown>(null);
  return (
    <section class="panel" aria-labelledby="delete-client">
      <h2 id="delete-client">Delete client</h2>
      <p>
        Deleting ends the client's sessions: its refresh and access tokens stop working, and the app can no
        longer sign anyone in. This cannot be undone.
      </p>
      <ErrorNotice error={error} />
      <ConfirmButton
        question={`Delete ${client.client_name} for good?`}
        confirmLabel="Yes, delete it"
        onConfirm={async () => {
          setError(null);
          try {
            await del(orgPath(org.slug, 'clients', client.client_id));
            listNews = `Client ${client.client_name} deleted.`;
            navigate(listHref(org.slug));
          } catch (e) {
            setError(e);
          }
        }}
      >
        Delete client
      </ConfirmButton>
    </section>
  );
}
