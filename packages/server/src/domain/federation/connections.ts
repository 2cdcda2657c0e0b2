import { X509Certificate } from 'node:crypto';
import type { Handle } from '../../storage/handle.js';
import {
  deleteConnectionRow,
  findConnection,
  findConnectionWithSecret,
  insertConnection,
  listConnections as listStored,
  pageConnections,
  updateConnectionRow,
} from '../../storage/repos/connections.js';
import { fieldsOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { orgListThrough } from '../credential-cache.js';
import { fail, failApi } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { issuerOf } from '../issuers.js';
import { isLoopbackHost } from '../loopback.js';
import { type PageAsked, windowOf } from '../paging.js';
import { runForIdOf } from '../run-for-id.js';
import type { Actor, Connection, ConnectionBase, IdpSettings, OidcSettings, Org } from '../types.js';
import { requireDefaultRoles } from './default-roles.js';
import type { FederationDeps } from './deps.js';
import { emailDomain } from './email-domain.js';
import { readIdpMetadata } from './idp-metadata.js';
import { checkEndpointHosts, refusePrivateUpstream } from './upstream-address.js';

/**
 * An org's enterprise sign-in connections (DESIGN §17): an upstream OIDC provider or SAML IdP the
 * org's people sign in through. The OIDC client secret is stored sealed and never read back out
 * but to talk to the upstream.
 */

export type { Connection, OidcSettings } from '../types.js';

/** What the API takes to create a connection (already shape-checked). */
export type NewConnection = {
  name: string;
  domains?: string[] | undefined;
  jit?: boolean | undefined;
  jitAnyDomain?: boolean | undefined;
  defaultRoles?: string[] | undefined;
} & (
  | {
      type: 'oidc';
      issuer: string;
      clientId: string;
      clientSecret: string;
      scopes?: string[] | undefined;
      hostedDomain?: string | null | undefined;
      allowedEndpointHosts?: string[] | undefined;
      acceptIdJag?: boolean | undefined;
    }
  | {
      type: 'saml';
      metadataXml?: string | undefined;
      entityId?: string | undefined;
      ssoUrl?: string | undefined;
      certificate?: string | undefined;
    }
);

/** What an update may change; an absent field keeps its value. */
export interface ConnectionChanges {
  name?: string | undefined;
  domains?: string[] | undefined;
  jit?: boolean | undefined;
  jitAnyDomain?: boolean | undefined;
  defaultRoles?: string[] | undefined;
  issuer?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  scopes?: string[] | undefined;
  /** null: no longer checked. */
  hostedDomain?: string | null | undefined;
  allowedEndpointHosts?: string[] | undefined;
  /** OIDC only: take the provider's ID-JAGs (DESIGN §20). */
  acceptIdJag?: boolean | undefined;
  metadataXml?: string | undefined;
  entityId?: string | undefined;
  ssoUrl?: string | undefined;
  certificate?: string | undefined;
}

export const DEFAULT_OIDC_SCOPES = ['openid', 'email', 'profile'];

/** The URLs an owner gives their IdP, all under the org's issuer. */
export function connectionUrls(
  deps: Pick<FederationDeps, 'config'>,
  org: Org,
  c: Pick<Connection, 'id' | 'type'>,
) {
  const issuer = issuerOf(deps.config, org);
  if (c.type === 'oidc') return { callbackUrl: `${issuer}sso/${c.id}/callback` };
  const metadataUrl = `${issuer}saml/${c.id}/metadata`;
  return { acsUrl: `${issuer}saml/${c.id}/acs`, spEntityId: metadataUrl, metadataUrl };
}

/**
 * An OIDC connection's provider settings as owners read them (its audit entries, the API, the CLI):
 * each setting stored before it existed reads as its default (no hosted domain, no other endpoint
 * host, no ID-JAGs).
 */
export const oidcSettingsShown = (o: OidcSettings) => ({
  issuer: o.issuer,
  clientId: o.clientId,
  scopes: o.scopes,
  hostedDomain: o.hostedDomain ?? null,
  allowedEndpointHosts: o.allowedEndpointHosts ?? [],
  acceptIdJag: o.acceptIdJag === true,
});

/** A connection's own fields as owners read them, in their order (its audit snapshot's and the CLI's first part). */
export const connectionFields = (c: Connection) =>
  fieldsOf(c, ['id', 'type', 'name', 'domains', 'jit', 'jitAnyDomain', 'defaultRoles']);

export const connectionSnapshot = (c: Connection) => ({
  ...connectionFields(c),
  ...(c.type === 'oidc'
    ? oidcSettingsShown(c.oidc)
    : { idpEntityId: c.saml.entityId, ssoUrl: c.saml.ssoUrl, certificates: c.saml.certificates.length }),
  createdAt: new Date(c.createdAt).toISOString(),
  updatedAt: new Date(c.updatedAt).toISOString(),
});

const audit = auditTrail('connection', connectionSnapshot);

/** An https URL, or http on loopback (a provider on this machine, in development and tests). */
function checkUpstreamUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return failApi('connection.url.not_absolute', `${field}: must be an absolute URL`);
  }
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!ok) failApi('connection.url.not_https', `${field}: must be an https URL`);
  if (url.hash !== '' || url.username !== '' || url.password !== '')
    failApi('connection.url.credentials', `${field}: must have no fragment and no credentials`);
  return value;
}

/**
 * An OIDC issuer: https (http on loopback), and not an address the outbound policy refuses while
 * TESSERA_OUTBOUND_ALLOW_PRIVATE is off (upstream-address.ts): nothing is fetched to decide.
 */
export function checkIssuer(deps: Pick<FederationDeps, 'config'>, value: string): string {
  const issuer = checkUpstreamUrl('issuer', value);
  refusePrivateUpstream(deps, 'issuer', new URL(issuer));
  return issuer;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

function checkDomains(domains: string[]): string[] {
  const out = [...new Set(domains.map((d) => d.trim().toLowerCase()))];
  for (const d of out)
    if (!DOMAIN.test(d)) failApi('connection.domain.invalid', `domains: "${d}" is not a domain name`);
  return out;
}

/** A Google Workspace domain as `hd` carries it (lower case), or null for none. */
function checkHostedDomain(value: string | null): string | null {
  if (value === null) return null;
  const d = value.trim().toLowerCase();
  if (!DOMAIN.test(d))
    failApi('connection.hosted_domain.invalid', `hosted_domain: "${value}" is not a domain name`);
  return d;
}

/** A PEM certificate or its base64 body, checked to parse; kept as the base64 body. */
function checkCertificate(value: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    failApi('connection.certificate.invalid', 'certificate: not an X.509 certificate (PEM or base64 DER)');
  }
  return body;
}

export function samlSettings(input: {
  metadataXml?: string | undefined;
  entityId?: string | undefined;
  ssoUrl?: string | undefined;
  certificate?: string | undefined;
}): IdpSettings {
  if (input.metadataXml !== undefined) {
    const read = readIdpMetadata(input.metadataXml);
    checkUpstreamUrl('metadata_xml', read.ssoUrl);
    read.certificates.forEach(checkCertificate);
    return read;
  }
  if (!input.entityId || !input.ssoUrl || !input.certificate)
    failApi(
      'connection.saml.incomplete',
      'a SAML connection needs metadata_xml, or idp_entity_id, sso_url and certificate',
    );
  return {
    entityId: input.entityId as string,
    ssoUrl: checkUpstreamUrl('sso_url', input.ssoUrl as string),
    certificates: [checkCertificate(input.certificate as string)],
  };
}

/** No two connections of an org may claim one domain: discovery must have one answer. */
async function refuseClaimedDomains(tx: Handle, org: Org, domains: string[], self: string | null) {
  for (const other of await listStored(tx, org.id)) {
    if (other.id === self) continue;
    const taken = domains.find((d) => other.domains.includes(d));
    if (taken) fail('connection.domain.claimed', `domains: ${taken} is claimed by connection ${other.id}`);
  }
}

/** Creates a connection with its `connection.created` entry; the secret is sealed, never returned. */
export async function createConnection(
  deps: FederationDeps,
  org: Org,
  input: NewConnection,
  actor: Actor,
): Promise<Connection> {
  const now = clock.now();
  const base: ConnectionBase = {
    id: newResourceId('connection'),
    orgId: org.id,
    name: input.name.trim(),
    domains: checkDomains(input.domains ?? []),
    jit: input.jit ?? false,
    jitAnyDomain: input.jitAnyDomain ?? false,
    defaultRoles: [...new Set(input.defaultRoles ?? [])],
    createdAt: now,
    updatedAt: now,
  };
  if (base.name === '') failApi('connection.name.empty', 'name: must not be empty');
  let connection: Connection;
  let sealed: string | null = null;
  if (input.type === 'oidc') {
    connection = {
      ...base,
      type: 'oidc',
      oidc: {
        issuer: checkIssuer(deps, input.issuer),
        clientId: input.clientId,
        scopes: [...new Set(['openid', ...(input.scopes ?? DEFAULT_OIDC_SCOPES)])],
        hostedDomain: checkHostedDomain(input.hostedDomain ?? null),
        allowedEndpointHosts: checkEndpointHosts(deps, input.allowedEndpointHosts ?? []),
        ...(input.acceptIdJag === true ? { acceptIdJag: true } : {}),
      },
    };
    sealed = deps.sealer.seal(input.clientSecret);
  } else {
    connection = { ...base, type: 'saml', saml: samlSettings(input) };
  }
  await deps.unitOfWork.run(async (tx) => {
    await requireDefaultRoles(tx, org, connection.defaultRoles);
    await refuseClaimedDomains(tx, org, connection.domains, null);
    await insertConnection(tx, connection, sealed);
    await audit.created(tx, { orgId: org.id, actor, at: now }, connection);
  });
  return connection;
}

/** The org's connections, from the change-notified cache when the runtime keeps one. */
export async function listConnections(
  deps: Pick<FederationDeps, 'store' | 'connections'>,
  org: Org,
): Promise<readonly Connection[]> {
  return orgListThrough(deps.connections, org.id, () => listStored(deps.store, org.id));
}

/** One page of the org's connections, oldest first, and how many it has. */
export async function pageOfConnections(
  deps: Pick<FederationDeps, 'store'>,
  org: Org,
  q: PageAsked,
): Promise<{ entries: Connection[]; total: number }> {
  const { rows, total } = await pageConnections(deps.store, org.id, windowOf(q));
  return { entries: rows, total };
}

const noSuchConnection = () => fail('connection.not_found', 'no such connection');

/** The org's connection `id`, or 404. */
export async function requireConnection(
  deps: Pick<FederationDeps, 'store'>,
  org: Org,
  id: string,
): Promise<Connection> {
  if (!isIdOf('connection', id)) noSuchConnection();
  return (await findConnection(deps.store, org.id, id)) ?? noSuchConnection();
}

/** The OIDC client secret of a connection, opened to talk to its provider. */
export async function connectionSecret(deps: FederationDeps, org: Org, id: string): Promise<string> {
  const { sealedSecret } = (await findConnectionWithSecret(deps.store, org.id, id)) ?? noSuchConnection();
  return sealedSecret === null ? '' : deps.sealer.open(sealedSecret);
}

/** Updates a connection (its type stays) with `connection.updated`; a new secret replaces the old. */
export async function updateConnection(
  deps: FederationDeps,
  org: Org,
  id: string,
  changes: ConnectionChanges,
  actor: Actor,
): Promise<Connection> {
  return runForIdOf(deps.unitOfWork, 'connection', id, noSuchConnection, async (tx) => {
    const stored = (await findConnectionWithSecret(tx, org.id, id)) ?? noSuchConnection();
    const before = stored.connection;
    const common = {
      name: changes.name === undefined ? before.name : changes.name.trim(),
      domains: changes.domains === undefined ? before.domains : checkDomains(changes.domains),
      jit: changes.jit ?? before.jit,
      jitAnyDomain: changes.jitAnyDomain ?? before.jitAnyDomain,
      // Checked when given: a role deleted since is skipped when roles are granted (default-roles.ts).
      defaultRoles:
        changes.defaultRoles === undefined
          ? before.defaultRoles
          : await requireDefaultRoles(tx, org, changes.defaultRoles),
      updatedAt: Math.max(clock.now(), before.updatedAt + 1),
    };
    if (common.name === '') failApi('connection.name.empty', 'name: must not be empty');
    const foreign =
      before.type === 'oidc'
        ? [changes.metadataXml, changes.entityId, changes.ssoUrl, changes.certificate]
        : [
            changes.issuer,
            changes.clientId,
            changes.clientSecret,
            changes.scopes,
            changes.hostedDomain,
            changes.allowedEndpointHosts,
            changes.acceptIdJag,
          ];
    if (foreign.some((v) => v !== undefined))
      failApi(
        'connection.type_mismatch',
        `a field of the other type was given: this is a ${before.type} connection`,
      );
    let sealed = stored.sealedSecret;
    let after: Connection;
    if (before.type === 'oidc') {
      after = {
        ...before,
        ...common,
        oidc: {
          issuer: changes.issuer === undefined ? before.oidc.issuer : checkIssuer(deps, changes.issuer),
          clientId: changes.clientId ?? before.oidc.clientId,
          scopes:
            changes.scopes === undefined ? before.oidc.scopes : [...new Set(['openid', ...changes.scopes])],
          hostedDomain:
            changes.hostedDomain === undefined
              ? (before.oidc.hostedDomain ?? null)
              : checkHostedDomain(changes.hostedDomain),
          allowedEndpointHosts:
            changes.allowedEndpointHosts === undefined
              ? (before.oidc.allowedEndpointHosts ?? [])
              : checkEndpointHosts(deps, changes.allowedEndpointHosts),
          ...((changes.acceptIdJag ?? before.oidc.acceptIdJag) === true ? { acceptIdJag: true } : {}),
        },
      };
      if (changes.clientSecret !== undefined) sealed = deps.sealer.seal(changes.clientSecret);
    } else {
      const replaced =
        changes.metadataXml !== undefined ||
        changes.entityId !== undefined ||
        changes.ssoUrl !== undefined ||
        changes.certificate !== undefined;
      const saml = replaced
        ? changes.metadataXml !== undefined
          ? samlSettings(changes)
          : samlSettings({
              entityId: changes.entityId ?? before.saml.entityId,
              ssoUrl: changes.ssoUrl ?? before.saml.ssoUrl,
              certificate: changes.certificate ?? before.saml.certificates[0],
            })
        : before.saml;
      after = { ...before, ...common, saml };
    }
    await refuseClaimedDomains(tx, org, after.domains, id);
    await updateConnectionRow(tx, after, sealed);
    await audit.updated(tx, { orgId: org.id, actor, at: after.updatedAt }, before, after);
    return after;
  });
}

/** Deletes a connection with `connection.deleted`; its users stay, unlinked. */
export async function deleteConnection(
  deps: FederationDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  const connection = await requireConnection(deps, org, id);
  await deps.unitOfWork.run(async (tx) => {
    if (!(await deleteConnectionRow(tx, org.id, id))) noSuchConnection();
    await audit.deleted(tx, { orgId: org.id, actor }, connection);
  });
}

/** The connection claiming the domain of `email`, or null (email-domain discovery). */
export async function connectionForEmail(
  deps: Pick<FederationDeps, 'store' | 'connections'>,
  org: Org,
  email: string,
): Promise<Connection | null> {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  if (domain === '') return null;
  return (await listConnections(deps, org)).find((c) => c.domains.includes(domain)) ?? null;
}

/** Whether the connection claims the domain of `email`. */
export function claimsEmail(c: Connection, email: string): boolean {
  const domain = emailDomain(email);
  return domain !== null && c.domains.includes(domain);
}
