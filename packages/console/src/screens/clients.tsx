import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, body, ok } from '../api/client.js';
import { clientsPage } from '../api/lists.js';
import { inOrg, oneIn } from '../api/params.js';
import type { Client, CreateClientBody, GrantType, LogoutDelivery, UpdateClientBody } from '../api/types.js';
import { ConfirmPanel, DeletePanel } from '../components/confirm-panel.js';
import { Chips, DataTable } from '../components/data-table.js';
import { DetailPage } from '../components/detail-page.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { EditPanel, useSave } from '../components/edit-panel.js';
import { Fact } from '../components/fact.js';
import { CheckboxField, linesOf, TextField } from '../components/fields.js';
import { FormPanel } from '../components/form-panel.js';
import { Link } from '../components/link.js';
import { ListScreen } from '../components/list-screen.js';
import { ListTable } from '../components/list-table.js';
import { Done, EmptyState, LoadNotice } from '../components/notices.js';
import { DetailHead, forOwners } from '../components/page-head.js';
import { SecretOnce } from '../components/secret-once.js';
import { when } from '../format.js';
import { oneTimeNews } from '../news.js';
import type { OrgScreenProps } from '../org-context.js';
import { navigate, orgHref } from '../router.js';
import { sameList } from '../same-list.js';
import { useAction } from '../use-action.js';
import { useDraft } from '../use-draft.js';
import { useAddressListPage } from '../use-list-page.js';
import { useLoad } from '../use-load.js';
import { BrandingScreen } from './branding.js';
import { ClientPermissions } from './client-permissions.js';

/** Each grant type the API knows, in a few words: a type the document adds fails the typecheck here. */
const GRANT_MEANINGS: Record<GrantType, string> = {
  authorization_code: 'people sign in through the browser',
  refresh_token: 'sessions renew without signing in again',
  client_credentials: 'the app calls APIs as itself (confidential clients only)',
  'urn:ietf:params:oauth:grant-type:device_code':
    'people sign a CLI or a device without a browser in by typing its code on another device (RFC 8628)',
};
const GRANTS = Object.entries(GRANT_MEANINGS) as [GrantType, string][];

const REDIRECT_HINT = 'One per line: https, or http on localhost, 127.0.0.1 or [::1]; no fragment.';
const POST_LOGOUT_HINT = 'One per line, where sign-out may return to; same rules as redirect URIs.';
const BACKCHANNEL_HINT =
  'Optional (OpenID Connect Back-Channel Logout). Tessera POSTs a signed logout token here whenever a browser signed into this app signs out or is signed out. https, or http on localhost, 127.0.0.1 or [::1]; no fragment.';
const FRONTCHANNEL_HINT =
  'Optional (OpenID Connect Front-Channel Logout). The signed-out page loads this page in a hidden frame. Same rules.';
const ORIGINS_HINT =
  'Browser apps on these origins may call the token, revocation and userinfo endpoints (CORS). One per line, scheme://host[:port] with no path: https, or http on localhost, 127.0.0.1 or [::1]. Left empty: the origins of the redirect URIs.';

/**
 * A secret (or just the news) of a client this tab created a moment ago, for its page to show
 * once: kept in memory only, taken when read, so a reload no longer has it. `chosen`: the grant
 * types the API gave it when the form left them to the API.
 */
const justCreated = new Map<string, { secret?: string; chosen?: GrantType[] }>();
/** A line for the list to announce once (a client just deleted). */
const clientNews = oneTimeNews();

const CREATED = 'The client secret';
const ROTATED = 'The new client secret';

const listHref = (slug: string) => orgHref(slug, 'clients');

/** Clients are the API's owner-only lists: a member sees why there is nothing here. */
function ClientsOwnersOnly() {
  return <p class="notice info">Only owners of this organization can see and change its clients.</p>;
}

/** The org's OAuth clients, a page at a time (the page is in the address, so Back returns to it). */
export const Clients = forOwners('Clients', ClientsOwnersOnly, ClientList);

/** `/clients/new` is the form for a new client; any other id is that client's page. */
export const ClientDetail = forOwners('Clients', ClientsOwnersOnly, ({ org, id }) =>
  id === 'new' ? <NewClient org={org} /> : <ClientPage org={org} id={id} />,
);

function ClientList({ org }: { org: OrgScreenProps['org'] }) {
  const { loaded, go } = useAddressListPage(org.slug, 'clients', clientsPage);
  const newHref = orgHref(org.slug, 'clients', 'new');
  return (
    <ListScreen
      title="Clients"
      action={{ href: newHref, label: 'New client' }}
      news={clientNews}
      intro="The apps that sign people in with this organization, or call its APIs as themselves."
    >
      <ListTable
        loaded={loaded}
        what="clients"
        pager="Pages of clients"
        onGo={go}
        empty={
          <EmptyState title="No clients yet">
            <p>
              Register an app to let it sign people in: <Link href={newHref}>create the first client</Link>.
            </p>
          </EmptyState>
        }
        caption="Clients"
        rowKey={(c) => c.client_id}
        columns={[
          {
            label: 'Name',
            cell: (c) => <Link href={orgHref(org.slug, 'clients', c.client_id)}>{c.client_name}</Link>,
          },
          { label: 'Client id', cell: (c) => <code class="one-line">{c.client_id}</code> },
          { label: 'Type', cell: (c) => (c.type === 'public' ? 'Public' : 'Confidential') },
          { label: 'Grant types', cell: (c) => <Chips values={c.grant_types} /> },
          { label: 'Created', cell: (c) => when(c.created_at) },
        ]}
      />
    </ListScreen>
  );
}

/** What the logout fields hold as typed: the two URIs (empty: none) and their session flags. */
interface LogoutForm {
  back: string;
  backSession: boolean;
  front: string;
  frontSession: boolean;
}

const logoutFormOf = (client?: Client): LogoutForm => ({
  back: client?.backchannel_logout_uri ?? '',
  backSession: client?.backchannel_logout_session_required ?? false,
  front: client?.frontchannel_logout_uri ?? '',
  frontSession: client?.frontchannel_logout_session_required ?? false,
});

/** What the fields both client forms show hold as typed: the name, the URIs (one per line), logout. */
interface ClientForm extends LogoutForm {
  name: string;
  redirects: string;
  postLogout: string;
  origins: string;
}

type SetForm = (change: Partial<ClientForm>) => void;

/** The client's name, first on both forms. */
const NAME: FieldDecl<ClientForm> = {
  key: 'name',
  name: 'client_name',
  label: 'Name',
  required: true,
  hint: 'Shown to people on the consent page.',
};

/** Where the client's codes go, where sign-out may return to, and which origins may call it. */
const URIS: FieldDecl<ClientForm>[] = [
  { kind: 'lines', key: 'redirects', name: 'redirect_uris', label: 'Redirect URIs', hint: REDIRECT_HINT },
  {
    kind: 'lines',
    key: 'postLogout',
    name: 'post_logout_redirect_uris',
    label: 'Post-logout redirect URIs',
    hint: POST_LOGOUT_HINT,
  },
  { kind: 'lines', key: 'origins', name: 'allowed_origins', label: 'Allowed origins', hint: ORIGINS_HINT },
];

/**
 * The URIs and, in their fieldset, where the app hears of sign-outs (back-channel and front-channel
 * logout): the same on create and edit; each channel's session flag once its URI is typed.
 */
function UriFields({ form, set }: { form: ClientForm; set: SetForm }) {
  const logout: (FieldDecl<ClientForm> | false)[] = [
    {
      key: 'back',
      name: 'backchannel_logout_uri',
      label: 'Back-channel logout URI',
      type: 'url',
      hint: BACKCHANNEL_HINT,
    },
    form.back.trim() !== '' && {
      kind: 'checkbox',
      key: 'backSession',
      name: 'backchannel_logout_session_required',
      label: 'Back-channel logout needs the session id',
      hint: 'The logout token names the sign-in (sid); Tessera always includes it.',
    },
    {
      key: 'front',
      name: 'frontchannel_logout_uri',
      label: 'Front-channel logout URI',
      type: 'url',
      hint: FRONTCHANNEL_HINT,
    },
    form.front.trim() !== '' && {
      kind: 'checkbox',
      key: 'frontSession',
      name: 'frontchannel_logout_session_required',
      label: 'Front-channel logout needs the issuer and session id',
      hint: "The framed page's address carries iss and sid.",
    },
  ];
  return (
    <>
      <DraftFields draft={form} set={set} fields={URIS} />
      <fieldset>
        <legend>Logout</legend>
        <DraftFields draft={form} set={set} fields={logout} />
      </fieldset>
    </>
  );
}

/** The logout fields of a new client: only what was filled in. */
function logoutCreated(form: LogoutForm): Partial<CreateClientBody> {
  const back = form.back.trim();
  const front = form.front.trim();
  return {
    ...(back ? { backchannel_logout_uri: back, backchannel_logout_session_required: form.backSession } : {}),
    ...(front
      ? { frontchannel_logout_uri: front, frontchannel_logout_session_required: form.frontSession }
      : {}),
  };
}

/** The logout fields that changed (an emptied URI: removed, with its flag). */
function logoutChanges(form: LogoutForm, client: Client): Partial<UpdateClientBody> {
  const before = logoutFormOf(client);
  const back = form.back.trim();
  const front = form.front.trim();
  const changes: Partial<UpdateClientBody> = {};
  if (back !== before.back) changes.backchannel_logout_uri = back || null;
  if (back && (back !== before.back || form.backSession !== before.backSession))
    changes.backchannel_logout_session_required = form.backSession;
  if (front !== before.front) changes.frontchannel_logout_uri = front || null;
  if (front && (front !== before.front || form.frontSession !== before.frontSession))
    changes.frontchannel_logout_session_required = form.frontSession;
  return changes;
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

/** The fields of a client as first typed, or (`client`) as the client has them. */
const formOf = (client?: Client): ClientForm => ({
  name: client?.client_name ?? '',
  redirects: client?.redirect_uris.join('\n') ?? '',
  postLogout: client?.post_logout_redirect_uris.join('\n') ?? '',
  origins: client?.allowed_origins.join('\n') ?? '',
  ...logoutFormOf(client),
});

function NewClient({ org }: { org: OrgScreenProps['org'] }) {
  const [form, set] = useDraft<ClientForm>(formOf);
  const [type, setType] = useState<Client['type']>('confidential');
  /** The grant types the owner checked; none: the API chooses them (its answer shows which). */
  const [grants, setGrants] = useState<GrantType[]>([]);
  const [firstParty, setFirstParty] = useState(true);
  const action = useAction();
  const origins = linesOf(form.origins);
  return (
    <>
      <DetailHead href={listHref(org.slug)} back="All clients" title="New client" />
      <FormPanel
        title="New client"
        submit="Create client"
        state={action}
        onSubmit={() =>
          action.run(async () => {
            const created: CreateClientBody = {
              client_name: form.name,
              type,
              redirect_uris: linesOf(form.redirects),
              post_logout_redirect_uris: linesOf(form.postLogout),
              ...(origins.length > 0 ? { allowed_origins: origins } : {}),
              ...(grants.length > 0 ? { grant_types: grants } : {}),
              first_party: firstParty,
              ...logoutCreated(form),
            };
            const data = await body(
              api.POST('/organizations/{org}/clients', {
                ...inOrg(org.slug),
                body: created,
              }),
            );
            justCreated.set(data.client_id, {
              ...(data.client_secret ? { secret: data.client_secret } : {}),
              ...(grants.length > 0 ? {} : { chosen: data.grant_types }),
            });
            navigate(orgHref(org.slug, 'clients', data.client_id), { replace: true });
          })
        }
      >
        <DraftFields draft={form} set={set} fields={[NAME]} />
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
        <UriFields form={form} set={set} />
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
      </FormPanel>
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
    () => body(api.GET('/organizations/{org}/clients/{id}', oneIn(org.slug, id))),
    [org.slug, id],
  );
  const secretBox = useRef<HTMLDivElement>(null);
  // A secret made by rotation appears above: the focus goes to it, as it would to a new page.
  useEffect(() => {
    if (secret?.label === ROTATED) secretBox.current?.focus();
  }, [secret]);
  return (
    <DetailPage
      loaded={loaded}
      href={listHref(org.slug)}
      back="All clients"
      name={(client) => client.client_name}
      fallback="Client"
      what="the client"
      notes={
        <>
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
        </>
      }
    >
      {(client) => (
        <>
          <ClientFacts client={client} />
          <EditClient key={client.client_id} org={org} client={client} onSaved={loaded.reload} />
          {client.backchannel_logout_uri ? <LogoutDeliveries org={org} client={client} /> : null}
          {client.type === 'confidential' ? <ClientPermissions org={org} client={client} /> : null}
          <BrandingScreen slug={org.slug} orgName={client.client_name} clientId={client.client_id} />
          {client.type === 'confidential' ? (
            <RotateSecret
              org={org}
              client={client}
              onRotated={(value) => setSecret({ label: ROTATED, value })}
            />
          ) : null}
          <DeletePanel
            id="delete-client"
            title="Delete client"
            question={`Delete ${client.client_name} for good?`}
            remove={() => api.DELETE('/organizations/{org}/clients/{id}', oneIn(org.slug, client.client_id))}
            news={{ to: clientNews, line: `Client ${client.client_name} deleted.` }}
            href={listHref(org.slug)}
          >
            <p>
              Deleting ends the client's sessions: its refresh and access tokens stop working, and the app can
              no longer sign anyone in. This cannot be undone.
            </p>
          </DeletePanel>
        </>
      )}
    </DetailPage>
  );
}

function ClientFacts({ client }: { client: Client }) {
  return (
    <dl class="facts panel client-facts">
      <Fact term="Client id" code={client.client_id} />
      <Fact term="Type">
        {client.type === 'public'
          ? 'Public: no secret, signs in with PKCE'
          : 'Confidential: authenticates with its secret'}
      </Fact>
      <Fact term="First party">
        {client.first_party ? 'Yes: its sign-in asks no consent' : 'No: people are asked to consent'}
      </Fact>
      <Fact term="Pushed requests">
        {client.require_pushed_authorization_requests
          ? 'Required: it must push its authorization requests to /oauth/par'
          : 'Optional (unless the organization requires them)'}
      </Fact>
      <Fact term="DPoP">{dpopFact(client)}</Fact>
      <Fact term="Allowed origins">
        {client.allowed_origins.length > 0
          ? client.allowed_origins.join(', ')
          : 'None: no browser app may call it'}
      </Fact>
      <Fact term="Logout">{logoutFact(client)}</Fact>
      {client.type === 'confidential' ? <Fact term="Public keys">{keysFact(client)}</Fact> : null}
      <Fact term="Created">{when(client.created_at)}</Fact>
    </dl>
  );
}

/** Where the app hears of sign-outs, in a few words. */
function logoutFact(client: Client): string {
  const told = [
    ...(client.backchannel_logout_uri ? [`back-channel to ${client.backchannel_logout_uri}`] : []),
    ...(client.frontchannel_logout_uri ? [`front-channel at ${client.frontchannel_logout_uri}`] : []),
  ];
  return told.length > 0 ? `Told ${told.join('; ')}` : 'Not told of sign-outs';
}

/** Whether its tokens must be DPoP-bound (RFC 9449), in a few words. */
function dpopFact(client: Client): string {
  const nonces = client.dpop_nonce_required === true ? ', with server nonces' : '';
  return client.dpop_bound_access_tokens === true
    ? `Required: every token is bound to the app's key${nonces}`
    : `Optional: tokens are bound when the app sends a proof${nonces}`;
}

/** How a confidential client's private_key_jwt keys are registered, in a few words. */
function keysFact(client: Client): string {
  if (client.jwks_uri !== undefined) return `Fetched from ${client.jwks_uri}`;
  if (client.jwks !== undefined) return `${client.jwks.keys.length} registered inline (private_key_jwt)`;
  return 'None: it authenticates with its secret only';
}

const JWKS_URI_HINT =
  'Optional. The https URL where this client publishes its public keys, to authenticate with a signed assertion (private_key_jwt) instead of its secret. Leave empty for none.';

function EditClient({
  org,
  client,
  onSaved,
}: {
  org: OrgScreenProps['org'];
  client: Client;
  onSaved: () => void;
}) {
  /** The origins as typed; null until edited, so the field shows what the client has now (the default follows the redirect URIs). */
  const [form, set] = useDraft<Omit<ClientForm, 'origins'> & { origins: string | null }>(() => ({
    ...formOf(client),
    origins: null,
  }));
  const shown: ClientForm = { ...form, origins: form.origins ?? client.allowed_origins.join('\n') };
  const [grants, setGrants] = useState<GrantType[]>(client.grant_types);
  const [jwksUri, setJwksUri] = useState(client.jwks_uri ?? '');
  const requiredBefore = client.require_pushed_authorization_requests === true;
  const [requirePushed, setRequirePushed] = useState(requiredBefore);
  const [dpopBound, setDpopBound] = useState(client.dpop_bound_access_tokens === true);
  const [dpopNonce, setDpopNonce] = useState(client.dpop_nonce_required === true);
  const saving = useSave(onSaved);
  return (
    <EditPanel
      id="edit-client"
      title="Edit client"
      state={saving}
      onSubmit={() => {
        const redirectUris = linesOf(form.redirects);
        const postLogoutUris = linesOf(form.postLogout);
        const allowedOrigins = form.origins === null ? client.allowed_origins : linesOf(form.origins);
        const changes: UpdateClientBody = {
          ...(form.name === client.client_name ? {} : { client_name: form.name }),
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
          ...logoutChanges(form, client),
          ...(requirePushed === requiredBefore
            ? {}
            : { require_pushed_authorization_requests: requirePushed }),
          ...(dpopBound === (client.dpop_bound_access_tokens === true)
            ? {}
            : { dpop_bound_access_tokens: dpopBound }),
          ...(dpopNonce === (client.dpop_nonce_required === true) ? {} : { dpop_nonce_required: dpopNonce }),
        };
        return saving.save(changes, async () => {
          await ok(
            api.PATCH('/organizations/{org}/clients/{id}', {
              ...oneIn(org.slug, client.client_id),
              body: changes,
            }),
          );
          set({ origins: null });
        });
      }}
    >
      <DraftFields draft={shown} set={set} fields={[NAME]} />
      <UriFields form={shown} set={set} />
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
      <CheckboxField
        label="Require pushed authorization requests"
        name="require_pushed_authorization_requests"
        checked={requirePushed}
        onChange={setRequirePushed}
        hint="The app must post its sign-in requests to /oauth/par first (RFC 9126) and send only client_id and request_uri to /oauth/authorize; any other request is refused."
      />
      <CheckboxField
        label="Require DPoP"
        name="dpop_bound_access_tokens"
        checked={dpopBound}
        onChange={setDpopBound}
        hint="Every token request must carry a DPoP proof, so all its tokens are bound to the app's key and useless to anyone who steals them (dpop_bound_access_tokens, RFC 9449). Off: bound only when the app sends a proof."
      />
      <CheckboxField
        label="Require DPoP nonces"
        name="dpop_nonce_required"
        checked={dpopNonce}
        onChange={setDpopNonce}
        hint="Its DPoP proofs must carry a nonce Tessera hands out (use_dpop_nonce), which limits how far ahead a stolen key could sign proofs."
      />
    </EditPanel>
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
  return (
    <ConfirmPanel
      id="client-secret"
      title="Client secret"
      button="Rotate secret"
      question="Make a new secret? The old one stops working immediately."
      confirmLabel="Yes, rotate the secret"
      onConfirm={async () => {
        const data = await body(
          api.POST('/organizations/{org}/clients/{id}/secret', oneIn(org.slug, client.client_id)),
        );
        onRotated(data.client_secret);
      }}
    >
      <p>
        The secret is stored as a hash and cannot be shown again. Rotating makes a new one, shown once; the
        old secret stops working at once, so put the new one in the app's configuration right away.
      </p>
    </ConfirmPanel>
  );
}

const DELIVERY_STATUS: Record<LogoutDelivery['status'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** The newest logout tokens sent to the client's back-channel URI, and how each went. */
function LogoutDeliveries({ org, client }: { org: OrgScreenProps['org']; client: Client }) {
  const loaded = useLoad(
    () =>
      body(api.GET('/organizations/{org}/clients/{id}/logout-deliveries', oneIn(org.slug, client.client_id))),
    [org.slug, client.client_id],
  );
  return (
    <section class="panel" aria-labelledby="logout-deliveries">
      <h2 id="logout-deliveries">Logout deliveries</h2>
      <LoadNotice loaded={loaded} what="the logout deliveries" />
      {loaded.state === 'ok' ? (
        loaded.data.length === 0 ? (
          <p class="muted">No sign-out has been sent to this app yet.</p>
        ) : (
          <DataTable
            caption="Logout deliveries"
            rows={loaded.data}
            rowKey={(d) => d.id}
            columns={[
              { label: 'Sent', cell: (d) => when(d.created_at) },
              { label: 'User', cell: (d) => <code class="one-line">{d.sub}</code> },
              { label: 'Status', cell: (d) => DELIVERY_STATUS[d.status] },
              { label: 'Attempts', cell: (d) => String(d.attempts) },
              {
                label: 'Last answer',
                cell: (d) =>
                  d.last_error ?? (d.last_status_code === null ? '—' : `HTTP ${d.last_status_code}`),
              },
            ]}
          />
        )
      ) : null}
    </section>
  );
}
