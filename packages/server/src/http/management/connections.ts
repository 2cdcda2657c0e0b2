import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  type Connection,
  connectionUrls,
  createConnection,
  deleteConnection,
  type OidcSettings,
  oidcSettingsShown,
  pageOfConnections,
  requireConnection,
  testConnection,
  updateConnection,
} from '../../domain/federation/index.js';
import type { Org } from '../../domain/types.js';
import {
  ConnectionList,
  ConnectionRecord,
  ConnectionsQuery,
  ConnectionTestResult,
  CreateConnectionBody,
  TestConnectionBody,
  UpdateConnectionBody,
} from './connections-schemas.js';
import { endpoint, ok } from './endpoint.js';
import { ownedItems } from './owned-items.js';
import { apiError, jsonRequest, linkedPageResponses, ORG, ownersRefusals } from './responses.js';
import { timestamps } from './times.js';

/** An OIDC connection's provider settings, as the domain shows them, in the API's names. */
function oidcView(settings: OidcSettings) {
  const o = oidcSettingsShown(settings);
  return {
    issuer: o.issuer,
    client_id: o.clientId,
    scopes: o.scopes,
    hosted_domain: o.hostedDomain,
    allowed_endpoint_hosts: o.allowedEndpointHosts,
    accept_id_jag: o.acceptIdJag,
  };
}

function view(c: Connection, deps: Deps, org: Org): z.output<typeof ConnectionRecord> {
  const urls = connectionUrls(deps, org, c);
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    domains: c.domains,
    jit: c.jit,
    jit_any_domain: c.jitAnyDomain,
    default_roles: c.defaultRoles,
    ...(c.type === 'oidc'
      ? {
          oidc: oidcView(c.oidc),
          callback_url: urls.callbackUrl as string,
        }
      : {
          saml: { idp_entity_id: c.saml.entityId, sso_url: c.saml.ssoUrl, certificates: c.saml.certificates },
          acs_url: urls.acsUrl as string,
          sp_entity_id: urls.spEntityId as string,
          sp_metadata_url: urls.metadataUrl as string,
        }),
    ...timestamps(c),
  };
}

/** The fields every connection has: the domain's name of each, and the API's. */
const COMMON = {
  name: 'name',
  domains: 'domains',
  jit: 'jit',
  jitAnyDomain: 'jit_any_domain',
  defaultRoles: 'default_roles',
} as const;
/** An OIDC provider's fields. */
const OIDC = {
  issuer: 'issuer',
  clientId: 'client_id',
  clientSecret: 'client_secret',
  scopes: 'scopes',
  hostedDomain: 'hosted_domain',
  allowedEndpointHosts: 'allowed_endpoint_hosts',
  acceptIdJag: 'accept_id_jag',
} as const;
/** A SAML IdP's: its metadata, or the entity id, SSO URL and certificate by hand. */
const SAML = {
  metadataXml: 'metadata_xml',
  entityId: 'idp_entity_id',
  ssoUrl: 'sso_url',
  certificate: 'certificate',
} as const;

/** The fields `names` lists of a body, under the domain's names (absent ones as undefined). */
function fieldsOf<B, M extends Record<string, keyof B>>(b: B, names: M): { [K in keyof M]: B[M[K]] } {
  return Object.fromEntries(Object.entries(names).map(([to, from]) => [to, b[from]])) as {
    [K in keyof M]: B[M[K]];
  };
}

const connections = ownedItems({
  collection: 'connections',
  noun: 'connection',
  prefix: 'con',
  notFound: apiError('`not_found`: no such org or connection in it, or the token cannot manage it'),
});
const domainTaken = apiError('`conflict`: another connection of the org claims one of the domains');

/**
 * An org's enterprise sign-in connections, OIDC and SAML (DESIGN §17; owners only): create (the
 * OIDC client secret is taken here and never shown again), list, read, update, delete. Every
 * change is audited.
 */
export const CONNECTION_ENDPOINTS = [
  connections.create(
    {
      operationId: 'createConnection',
      summary: 'Add an enterprise sign-in connection (OIDC or SAML)',
      description:
        'OIDC: `issuer` (found by discovery), `client_id`, `client_secret` (stored sealed, never shown ' +
        'again), `scopes`, `hosted_domain` (Google Workspace: the `hd` every ID token must carry). SAML: `metadata_xml`, or `idp_entity_id` + `sso_url` + `certificate`. ' +
        'The answer carries the URLs to give the provider (callback, or ACS and SP metadata).',
      body: CreateConnectionBody,
      schema: ConnectionRecord,
      answer: 'created (never the secret)',
      refusals: {
        400: apiError(
          '`invalid_request`: an unknown field, or a value failing validation (an issuer or allowed endpoint host on loopback or a non-public address while TESSERA_OUTBOUND_ALLOW_PRIVATE is off)',
        ),
        404: connections.notFound,
        409: domainTaken,
      },
    },
    async (deps, { org, actor }, b) => {
      const c = await createConnection(
        deps,
        org,
        b.type === 'oidc'
          ? { ...fieldsOf(b, COMMON), type: 'oidc', ...fieldsOf(b, OIDC) }
          : { ...fieldsOf(b, COMMON), type: 'saml', ...fieldsOf(b, SAML) },
        actor,
      );
      return view(c, deps, org);
    },
  ),
  endpoint(
    {
      ...connections.write,
      method: 'post',
      path: '/organizations/:org/connections/test',
      operationId: 'testConnection',
      summary: 'Check a connection’s provider before saving it; nothing is stored',
      description:
        'Takes the body of a create (only `type` and, for OIDC, `issuer` are required; only the provider’s settings are read). ' +
        'OIDC: the issuer’s discovery document is fetched now, under the outbound address policy and the upstream time and size limits, and checked as a sign-in checks it (the same issuer; endpoints on its origin or an allowed endpoint host). ' +
        'SAML: the metadata, or the entity id, SSO URL and certificate, are read as a create reads them.',
      params: ORG,
      body: jsonRequest(TestConnectionBody),
      responses: {
        200: { description: 'what the provider publishes', schema: ConnectionTestResult },
        400: apiError(
          '`invalid_request`: an unknown field, a value failing validation, or the provider failing the test (unreachable, an HTTP error, not JSON, another issuer, an endpoint on a host not allowed, not SAML IdP metadata); the detail names it',
        ),
        ...ownersRefusals(connections.notFound),
        503: apiError('`unavailable`: too many calls to providers are running for this org; try again'),
      },
    },
    async ({ deps, caller: { org }, body: b }) => {
      const r = await testConnection(
        deps,
        org,
        b.type === 'oidc'
          ? { type: 'oidc', issuer: b.issuer, allowedEndpointHosts: b.allowed_endpoint_hosts }
          : { type: 'saml', ...fieldsOf(b, SAML) },
      );
      return ok(
        r.type === 'oidc'
          ? {
              type: 'oidc' as const,
              oidc: {
                issuer: r.issuer,
                authorization_endpoint: r.authorizationEndpoint,
                token_endpoint: r.tokenEndpoint,
                jwks_uri: r.jwksUri,
                userinfo_endpoint: r.userinfoEndpoint,
                id_token_signing_alg_values_supported: r.idTokenSigningAlgs,
                scopes_supported: r.scopesSupported,
              },
            }
          : {
              type: 'saml' as const,
              saml: {
                idp_entity_id: r.entityId,
                sso_url: r.ssoUrl,
                certificates: r.certificates.map((c) => ({ subject: c.subject, valid_to: c.validTo })),
              },
            },
      );
    },
  ),
  connections.list(
    {
      operationId: 'listConnections',
      summary: 'List the org’s connections (never their secrets)',
      query: ConnectionsQuery,
      responses: linkedPageResponses(ConnectionList, connections.notFound),
    },
    pageOfConnections,
    view,
  ),
  connections.get(
    { operationId: 'getConnection', summary: 'One connection (never its secret)', schema: ConnectionRecord },
    async (deps, org, id) => view(await requireConnection(deps, org, id), deps, org),
  ),
  connections.update(
    {
      operationId: 'updateConnection',
      summary: 'Change a connection; absent fields keep their value, a new `client_secret` replaces the old',
      body: UpdateConnectionBody,
      schema: ConnectionRecord,
      refusals: {
        400: apiError(
          '`invalid_request`: an unknown field, a field of the other type, or a value failing validation (an issuer or allowed endpoint host on loopback or a non-public address while TESSERA_OUTBOUND_ALLOW_PRIVATE is off)',
        ),
        409: domainTaken,
      },
    },
    async (deps, { org, actor }, id, b) => {
      const c = await updateConnection(
        deps,
        org,
        id,
        { ...fieldsOf(b, COMMON), ...fieldsOf(b, OIDC), ...fieldsOf(b, SAML) },
        actor,
      );
      return view(c, deps, org);
    },
  ),
  connections.remove(
    {
      operationId: 'deleteConnection',
      summary: 'Delete a connection; its users stay, and sign in otherwise',
    },
    deleteConnection,
  ),
];
