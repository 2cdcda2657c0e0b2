import type { Connection, UserRole } from '../api/types.js';
import { CheckboxField, LinesField, linesOf, SelectField, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { oneTimeNews } from '../news.js';
import { orgHref } from '../router.js';

/** What the connection screens share: the form's values, the fields both forms show, news. */

export type SamlSource = 'metadata' | 'manual';

/** A connection form's values as typed (lists one per line, scopes space-separated). */
export interface ConnectionDraft {
  name: string;
  domains: string;
  jit: boolean;
  jitAnyDomain: boolean;
  defaultRoles: string[];
  issuer: string;
  clientId: string;
  /** Write-only: sent when typed, never filled in from the API (which never returns it). */
  clientSecret: string;
  scopes: string;
  /** Google Workspace: the `hd` every ID token must name; empty: not checked. */
  hostedDomain: string;
  /** OIDC: ID-JAGs from this provider are taken at the token endpoint (Enterprise-Managed Authorization). */
  acceptIdJag: boolean;
  samlSource: SamlSource;
  metadataXml: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
}

export const DEFAULT_SCOPES = 'openid email profile';

export const emptyDraft = (): ConnectionDraft => ({
  name: '',
  domains: '',
  jit: false,
  jitAnyDomain: false,
  defaultRoles: [],
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: DEFAULT_SCOPES,
  hostedDomain: '',
  acceptIdJag: false,
  samlSource: 'metadata',
  metadataXml: '',
  entityId: '',
  ssoUrl: '',
  certificate: '',
});

/** The draft of a stored connection: its settings, no secret, no certificate or metadata to replace them. */
export const draftOf = (c: Connection): ConnectionDraft => ({
  ...emptyDraft(),
  name: c.name,
  domains: c.domains.join('\n'),
  jit: c.jit,
  jitAnyDomain: c.jit_any_domain,
  defaultRoles: c.default_roles,
  ...(c.type === 'oidc'
    ? {
        issuer: c.oidc.issuer,
        clientId: c.oidc.client_id,
        scopes: c.oidc.scopes.join(' '),
        hostedDomain: c.oidc.hosted_domain ?? '',
        acceptIdJag: c.oidc.accept_id_jag,
      }
    : { samlSource: 'manual' as const, entityId: c.saml.idp_entity_id, ssoUrl: c.saml.sso_url }),
});

export const scopesOf = (text: string) => text.split(/\s+/).filter((s) => s !== '');

export const TYPE_LABELS = { oidc: 'OpenID Connect', saml: 'SAML 2.0' } as const;

/** Connections this tab created a moment ago: their page says so once. */
export const justCreated = new Set<string>();

/** A line for the list to announce once (a connection just deleted). */
export const connectionNews = oneTimeNews();

/** Connections are the API's owner-only lists: a member sees why there is nothing here. */
export function ConnectionsOwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can see and change its enterprise sign-in connections.
    </p>
  );
}

type Change = (change: Partial<ConnectionDraft>) => void;

/** The connection's name, first on both forms. */
export function NameField({ draft, set }: { draft: ConnectionDraft; set: Change }) {
  return (
    <TextField
      label="Name"
      name="name"
      value={draft.name}
      onInput={(name) => set({ name })}
      required
      hint="Shown on the sign-in page as “Sign in with …”, up to 100 characters."
    />
  );
}

/** Domains, JIT and default roles: the same for both types, on create and edit. */
export function CommonFields({
  slug,
  draft,
  set,
  roles,
}: {
  slug: string;
  draft: ConnectionDraft;
  set: Change;
  roles: readonly UserRole[];
}) {
  // A default role that is no longer among the org's roles keeps a checkbox, named by its id.
  const shown = [
    ...roles,
    ...draft.defaultRoles
      .filter((id) => !roles.some((r) => r.id === id))
      .map((id) => ({ id, name: id, description: 'No longer a role of this organization.' })),
  ];
  return (
    <>
      <LinesField
        label="Email domains"
        name="domains"
        value={draft.domains}
        onInput={(domains) => set({ domains })}
        hint="One per line, like example.com. Someone who types an address in one of them signs in through this connection. Another connection may not claim the same domain."
      />
      <CheckboxField
        label="Create users on their first sign-in (just in time)"
        name="jit"
        checked={draft.jit}
        onChange={(jit) => set({ jit })}
        hint="Off: only people who already have an account here can sign in through it. On: only at addresses in the email domains above, unless the next box is ticked."
      />
      {draft.jit ? (
        <CheckboxField
          label="Also create users at addresses outside these domains"
          name="jit_any_domain"
          checked={draft.jitAnyDomain}
          onChange={(jitAnyDomain) => set({ jitAnyDomain })}
          hint="Anyone this provider signs in gets an account, except at a domain another connection claims. Leave it off unless the provider only admits your people."
        />
      ) : null}
      <fieldset class="role-picker">
        <legend>Default roles</legend>
        <p class="hint">Given to a user created on their first sign-in through this connection.</p>
        {shown.length === 0 ? (
          <p class="muted">
            This organization has no roles yet: <Link href={orgHref(slug, 'roles', 'new')}>create one</Link>{' '}
            on the Roles screen.
          </p>
        ) : (
          shown.map((r) => (
            <CheckboxField
              key={r.id}
              label={r.name}
              name="default_roles"
              checked={draft.defaultRoles.includes(r.id)}
              hint={r.description || undefined}
              onChange={(on) =>
                set({
                  defaultRoles: on
                    ? [...draft.defaultRoles, r.id]
                    : draft.defaultRoles.filter((id) => id !== r.id),
                })
              }
            />
          ))
        )}
      </fieldset>
    </>
  );
}

/** The provider's side of an OIDC connection; `editing`: the secret field replaces, blank keeps. */
export function OidcFields({
  draft,
  set,
  editing,
}: {
  draft: ConnectionDraft;
  set: Change;
  editing: boolean;
}) {
  return (
    <>
      <TextField
        label="Issuer"
        name="issuer"
        type="url"
        value={draft.issuer}
        onInput={(issuer) => set({ issuer })}
        required
        hint="The provider’s issuer URL, like https://example.okta.com: its configuration is found at /.well-known/openid-configuration. https only (http on localhost)."
      />
      <TextField
        label="Client id"
        name="client_id"
        value={draft.clientId}
        onInput={(clientId) => set({ clientId })}
        required
        hint="The client id the provider gave the application you registered there."
      />
      <TextField
        label={editing ? 'New client secret' : 'Client secret'}
        name="client_secret"
        type="password"
        autoComplete="new-password"
        value={draft.clientSecret}
        onInput={(clientSecret) => set({ clientSecret })}
        required={!editing}
        hint={
          editing
            ? 'Leave blank to keep the stored secret. It is stored encrypted and never shown, here or in the API.'
            : 'Stored encrypted and never shown again, here or in the API.'
        }
      />
      <TextField
        label="Scopes"
        name="scopes"
        value={draft.scopes}
        onInput={(scopes) => set({ scopes })}
        hint="Separated by spaces; openid is always asked. Usually openid email profile."
      />
      <TextField
        label="Google Workspace domain"
        name="hosted_domain"
        value={draft.hostedDomain}
        onInput={(hostedDomain) => set({ hostedDomain })}
        hint="For Google (https://accounts.google.com): only accounts of this Workspace domain sign in (the hd claim). Leave blank for other providers."
      />
      <CheckboxField
        label="Accept ID-JAGs from this provider (Enterprise-Managed Authorization)"
        name="accept_id_jag"
        checked={draft.acceptIdJag}
        onChange={(acceptIdJag) => set({ acceptIdJag })}
        hint="Its clients may then trade an ID-JAG it issued for an access token here, with no consent screen, for people linked through this connection and within their roles."
      />
    </>
  );
}

const SAML_SOURCES = [
  ['metadata', 'Its metadata XML'],
  ['manual', 'Entity id, sign-in URL, certificate'],
] as const;

/** The IdP of a SAML connection: its metadata, or its three values by hand. */
export function SamlFields({
  draft,
  set,
  editing,
}: {
  draft: ConnectionDraft;
  set: Change;
  editing: boolean;
}) {
  return (
    <>
      <SelectField
        label="Identity provider details"
        name="saml_source"
        value={draft.samlSource}
        options={SAML_SOURCES}
        onChange={(samlSource) => set({ samlSource })}
      />
      {draft.samlSource === 'metadata' ? (
        <LinesField
          label="IdP metadata XML"
          name="metadata_xml"
          rows={8}
          value={draft.metadataXml}
          onInput={(metadataXml) => set({ metadataXml })}
          required
          hint={`The XML document your identity provider offers as its SAML metadata (an EntityDescriptor with an IDPSSODescriptor).${editing ? ' It replaces the entity id, sign-in URL and certificates.' : ''}`}
        />
      ) : (
        <>
          <TextField
            label="IdP entity id"
            name="idp_entity_id"
            value={draft.entityId}
            onInput={(entityId) => set({ entityId })}
            required
            hint="The identity provider’s entity id (its issuer), as its setup page shows it."
          />
          <TextField
            label="IdP sign-in URL"
            name="sso_url"
            type="url"
            value={draft.ssoUrl}
            onInput={(ssoUrl) => set({ ssoUrl })}
            required
            hint="Its single sign-on URL for the HTTP-Redirect binding. https only (http on localhost)."
          />
          <LinesField
            label={editing ? 'New signing certificate' : 'Signing certificate'}
            name="certificate"
            rows={6}
            value={draft.certificate}
            onInput={(certificate) => set({ certificate })}
            required={!editing}
            hint={
              editing
                ? 'PEM (-----BEGIN CERTIFICATE-----) or base64. Leave blank to keep the current certificate.'
                : 'The certificate it signs assertions with: PEM (-----BEGIN CERTIFICATE-----) or base64.'
            }
          />
        </>
      )}
    </>
  );
}

/** The fields every connection has, as the API takes them. */
export const commonBody = (d: ConnectionDraft) => ({
  name: d.name,
  domains: linesOf(d.domains),
  jit: d.jit,
  jit_any_domain: d.jit && d.jitAnyDomain,
  default_roles: d.defaultRoles,
});

/** The hosted domain as the API takes it: null for none. */
export const hostedDomainOf = (d: ConnectionDraft) => d.hostedDomain.trim().toLowerCase() || null;
