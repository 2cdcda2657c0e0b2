import type { Connection, UserRole } from '../api/types.js';
import { ChoiceFieldset } from '../components/choice-fieldset.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { linesOf } from '../components/fields.js';
import { Link } from '../components/link.js';
import { oneTimeNews } from '../news.js';
import { orgHref } from '../router.js';
import { sameList } from '../same-list.js';
import { TestConnection } from './connection-test.js';

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

const scopesOf = (text: string) => text.split(/\s+/).filter((s) => s !== '');

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
const NAME: FieldDecl<ConnectionDraft> = {
  key: 'name',
  label: 'Name',
  required: true,
  hint: 'Shown on the sign-in page as “Sign in with …”, up to 100 characters.',
};

function NameField({ draft, set }: { draft: ConnectionDraft; set: Change }) {
  return <DraftFields draft={draft} set={set} fields={[NAME]} />;
}

const DOMAINS: FieldDecl<ConnectionDraft> = {
  kind: 'lines',
  key: 'domains',
  label: 'Email domains',
  hint: 'One per line, like example.com. Someone who types an address in one of them signs in through this connection. Another connection may not claim the same domain.',
};

const JIT: FieldDecl<ConnectionDraft> = {
  kind: 'checkbox',
  key: 'jit',
  label: 'Create users on their first sign-in (just in time)',
  hint: 'Off: only people who already have an account here can sign in through it. On: only at addresses in the email domains above, unless the next box is ticked.',
};

const JIT_ANY_DOMAIN: FieldDecl<ConnectionDraft> = {
  kind: 'checkbox',
  key: 'jitAnyDomain',
  name: 'jit_any_domain',
  label: 'Also create users at addresses outside these domains',
  hint: 'Anyone this provider signs in gets an account, except at a domain another connection claims. Leave it off unless the provider only admits your people.',
};

/** Domains, JIT and default roles: the same for both types, on create and edit. */
function CommonFields({
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
  const choices = [
    ...roles.map((r) => ({ id: r.id, label: r.name, hint: r.description || undefined })),
    ...draft.defaultRoles
      .filter((id) => !roles.some((r) => r.id === id))
      .map((id) => ({ id, label: id, hint: 'No longer a role of this organization.' })),
  ];
  return (
    <>
      <DraftFields draft={draft} set={set} fields={[DOMAINS, JIT, draft.jit && JIT_ANY_DOMAIN]} />
      <ChoiceFieldset
        legend="Default roles"
        hint="Given to a user created on their first sign-in through this connection."
        name="default_roles"
        choices={choices}
        chosen={draft.defaultRoles}
        onChange={(defaultRoles) => set({ defaultRoles })}
        none={
          <>
            This organization has no roles yet: <Link href={orgHref(slug, 'roles', 'new')}>create one</Link>{' '}
            on the Roles screen.
          </>
        }
      />
    </>
  );
}

/** The provider's side of an OIDC connection; `editing`: the secret field replaces, blank keeps. */
const oidcFields = (editing: boolean): FieldDecl<ConnectionDraft>[] => [
  {
    key: 'issuer',
    label: 'Issuer',
    type: 'url',
    required: true,
    hint: 'The provider’s issuer URL, like https://example.okta.com: its configuration is found at /.well-known/openid-configuration. https only (http on localhost).',
  },
  {
    key: 'clientId',
    name: 'client_id',
    label: 'Client id',
    required: true,
    hint: 'The client id the provider gave the application you registered there.',
  },
  {
    key: 'clientSecret',
    name: 'client_secret',
    label: editing ? 'New client secret' : 'Client secret',
    type: 'password',
    autoComplete: 'new-password',
    required: !editing,
    hint: editing
      ? 'Leave blank to keep the stored secret. It is stored encrypted and never shown, here or in the API.'
      : 'Stored encrypted and never shown again, here or in the API.',
  },
  {
    key: 'scopes',
    label: 'Scopes',
    hint: 'Separated by spaces; openid is always asked. Usually openid email profile.',
  },
  {
    key: 'hostedDomain',
    name: 'hosted_domain',
    label: 'Google Workspace domain',
    hint: 'For Google (https://accounts.google.com): only accounts of this Workspace domain sign in (the hd claim). Leave blank for other providers.',
  },
  {
    kind: 'checkbox',
    key: 'acceptIdJag',
    name: 'accept_id_jag',
    label: 'Accept ID-JAGs from this provider (Enterprise-Managed Authorization)',
    hint: 'Its clients may then trade an ID-JAG it issued for an access token here, with no consent screen, for people linked through this connection and within their roles.',
  },
];

const SAML_SOURCES = [
  ['metadata', 'Its metadata XML'],
  ['manual', 'Entity id, sign-in URL, certificate'],
] as const;

const SAML_SOURCE: FieldDecl<ConnectionDraft> = {
  kind: 'select',
  key: 'samlSource',
  name: 'saml_source',
  label: 'Identity provider details',
  options: SAML_SOURCES,
};

/** The IdP of a SAML connection: its metadata, or its three values by hand. */
function samlFields(source: SamlSource, editing: boolean): FieldDecl<ConnectionDraft>[] {
  if (source === 'metadata')
    return [
      SAML_SOURCE,
      {
        kind: 'lines',
        key: 'metadataXml',
        name: 'metadata_xml',
        label: 'IdP metadata XML',
        rows: 8,
        required: true,
        hint: `The XML document your identity provider offers as its SAML metadata (an EntityDescriptor with an IDPSSODescriptor).${editing ? ' It replaces the entity id, sign-in URL and certificates.' : ''}`,
      },
    ];
  return [
    SAML_SOURCE,
    {
      key: 'entityId',
      name: 'idp_entity_id',
      label: 'IdP entity id',
      required: true,
      hint: 'The identity provider’s entity id (its issuer), as its setup page shows it.',
    },
    {
      key: 'ssoUrl',
      name: 'sso_url',
      label: 'IdP sign-in URL',
      type: 'url',
      required: true,
      hint: 'Its single sign-on URL for the HTTP-Redirect binding. https only (http on localhost).',
    },
    {
      kind: 'lines',
      key: 'certificate',
      label: editing ? 'New signing certificate' : 'Signing certificate',
      rows: 6,
      required: !editing,
      hint: editing
        ? 'PEM (-----BEGIN CERTIFICATE-----) or base64. Leave blank to keep the current certificate.'
        : 'The certificate it signs assertions with: PEM (-----BEGIN CERTIFICATE-----) or base64.',
    },
  ];
}

/** The provider's fields of a connection of `type`; `editing`: a secret or certificate left blank is kept. */
function ProviderFields({
  type,
  draft,
  set,
  editing,
}: {
  type: Connection['type'];
  draft: ConnectionDraft;
  set: Change;
  editing: boolean;
}) {
  const fields = type === 'oidc' ? oidcFields(editing) : samlFields(draft.samlSource, editing);
  return <DraftFields draft={draft} set={set} fields={fields} />;
}

/** The fields every connection has, as the API takes them. */
const commonBody = (d: ConnectionDraft) => ({
  name: d.name,
  domains: linesOf(d.domains),
  jit: d.jit,
  jit_any_domain: d.jit && d.jitAnyDomain,
  default_roles: d.defaultRoles,
});

/** The hosted domain as the API takes it: null for none. */
const hostedDomainOf = (d: ConnectionDraft) => d.hostedDomain.trim().toLowerCase() || null;

/**
 * The form of a connection of `type`, the same on create and edit: its name, the provider's fields and
 * their test, then domains, JIT and default roles; `editing`: a secret or certificate left blank is kept.
 */
export function ConnectionFields({
  slug,
  type,
  draft,
  set,
  roles,
  editing,
}: {
  slug: string;
  type: Connection['type'];
  draft: ConnectionDraft;
  set: Change;
  roles: UserRole[];
  editing: boolean;
}) {
  return (
    <>
      <NameField draft={draft} set={set} />
      <ProviderFields type={type} draft={draft} set={set} editing={editing} />
      <TestConnection slug={slug} type={type} draft={draft} />
      <CommonFields slug={slug} draft={draft} set={set} roles={roles} />
    </>
  );
}

/** What the API takes to create the connection the draft describes. */
export function createBody(type: Connection['type'], d: ConnectionDraft) {
  if (type === 'oidc')
    return {
      type,
      ...commonBody(d),
      issuer: d.issuer.trim(),
      client_id: d.clientId.trim(),
      client_secret: d.clientSecret,
      scopes: scopesOf(d.scopes),
      hosted_domain: hostedDomainOf(d),
      accept_id_jag: d.acceptIdJag,
    };
  return {
    type,
    ...commonBody(d),
    ...(d.samlSource === 'metadata'
      ? { metadata_xml: d.metadataXml }
      : { idp_entity_id: d.entityId.trim(), sso_url: d.ssoUrl.trim(), certificate: d.certificate }),
  };
}

/** Only what differs from the stored connection: an untouched form changes nothing. */
export function changesOf(c: Connection, d: ConnectionDraft): Record<string, unknown> {
  const common = commonBody(d);
  const out: Record<string, unknown> = {
    ...(common.name === c.name ? {} : { name: common.name }),
    ...(sameList(common.domains, c.domains) ? {} : { domains: common.domains }),
    ...(common.jit === c.jit ? {} : { jit: common.jit }),
    ...(common.jit_any_domain === c.jit_any_domain ? {} : { jit_any_domain: common.jit_any_domain }),
    ...(sameList([...common.default_roles].sort(), [...c.default_roles].sort())
      ? {}
      : { default_roles: common.default_roles }),
  };
  if (c.type === 'oidc') {
    const scopes = scopesOf(d.scopes);
    return {
      ...out,
      ...(d.issuer.trim() === c.oidc.issuer ? {} : { issuer: d.issuer.trim() }),
      ...(d.clientId.trim() === c.oidc.client_id ? {} : { client_id: d.clientId.trim() }),
      ...(d.clientSecret === '' ? {} : { client_secret: d.clientSecret }),
      ...(sameList(scopes, c.oidc.scopes) ? {} : { scopes }),
      ...(hostedDomainOf(d) === c.oidc.hosted_domain ? {} : { hosted_domain: hostedDomainOf(d) }),
      ...(d.acceptIdJag === c.oidc.accept_id_jag ? {} : { accept_id_jag: d.acceptIdJag }),
    };
  }
  if (d.samlSource === 'metadata')
    return d.metadataXml.trim() === '' ? out : { ...out, metadata_xml: d.metadataXml };
  return {
    ...out,
    ...(d.entityId.trim() === c.saml.idp_entity_id ? {} : { idp_entity_id: d.entityId.trim() }),
    ...(d.ssoUrl.trim() === c.saml.sso_url ? {} : { sso_url: d.ssoUrl.trim() }),
    ...(d.certificate.trim() === '' ? {} : { certificate: d.certificate }),
  };
}
