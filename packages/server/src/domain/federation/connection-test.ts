import { X509Certificate } from 'node:crypto';
import { failApi } from '../errors.js';
import type { Org } from '../types.js';
import { checkIssuer, samlSettings } from './connections.js';
import type { FederationDeps } from './deps.js';
import { UpstreamUnusable } from './oidc-upstreams.js';
import { checkEndpointHosts } from './upstream-address.js';

/**
 * "Test connection" (DESIGN §17): what an owner is about to save, checked against its provider
 * before it is saved. OIDC: the issuer's discovery document is fetched now through the upstream
 * port (the outbound address policy, its time and size limits, the org's cap) and checked as a
 * sign-in checks it: it names the same issuer, and its endpoints are on the issuer's origin or an
 * allowed host. SAML: the metadata is read as creating the connection reads it. Nothing is stored;
 * what is wrong is a 400 naming it (503 when too many upstream calls run).
 */

export type OidcTestInput = { type: 'oidc'; issuer: string; allowedEndpointHosts?: string[] | undefined };
export type SamlTestInput = {
  type: 'saml';
  metadataXml?: string | undefined;
  entityId?: string | undefined;
  ssoUrl?: string | undefined;
  certificate?: string | undefined;
};

export type OidcTestResult = {
  type: 'oidc';
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint: string | null;
  idTokenSigningAlgs: string[];
  scopesSupported: string[];
};
export type SamlTestResult = {
  type: 'saml';
  entityId: string;
  ssoUrl: string;
  certificates: { subject: string; validTo: string }[];
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

async function testOidc(deps: FederationDeps, org: Org, input: OidcTestInput): Promise<OidcTestResult> {
  const issuer = checkIssuer(deps, input.issuer);
  const allowed = checkEndpointHosts(deps, input.allowedEndpointHosts ?? []);
  // Only `tessera serve` reaches providers; an app composed without them says so rather than a 500.
  if (deps.upstreams === undefined)
    return failApi(
      'connection.test.no_upstreams',
      'this process does not reach providers; test through tessera serve',
    );
  let doc: Record<string, unknown>;
  try {
    doc = await deps.upstreams.probe(org.id, issuer, allowed);
  } catch (error) {
    if (!(error instanceof UpstreamUnusable)) throw error;
    if (error.kind === 'busy')
      return failApi(
        'connection.test.busy',
        'too many calls to providers are running for this org; try again in a moment',
      );
    return failApi('connection.test.unusable', `issuer: ${error.problem}`);
  }
  return {
    type: 'oidc',
    issuer: doc.issuer as string,
    authorizationEndpoint: doc.authorization_endpoint as string,
    tokenEndpoint: doc.token_endpoint as string,
    jwksUri: doc.jwks_uri as string,
    userinfoEndpoint: typeof doc.userinfo_endpoint === 'string' ? doc.userinfo_endpoint : null,
    idTokenSigningAlgs: strings(doc.id_token_signing_alg_values_supported),
    scopesSupported: strings(doc.scopes_supported),
  };
}

function testSaml(input: SamlTestInput): SamlTestResult {
  const read = samlSettings(input);
  return {
    type: 'saml',
    entityId: read.entityId,
    ssoUrl: read.ssoUrl,
    certificates: read.certificates.map((body) => {
      const cert = new X509Certificate(Buffer.from(body, 'base64'));
      return { subject: cert.subject, validTo: new Date(cert.validTo).toISOString() };
    }),
  };
}

/** Checks a connection's settings against its provider; stores nothing. */
export async function testConnection(
  deps: FederationDeps,
  org: Org,
  input: OidcTestInput | SamlTestInput,
): Promise<OidcTestResult | SamlTestResult> {
  return input.type === 'oidc' ? testOidc(deps, org, input) : testSaml(input);
}
