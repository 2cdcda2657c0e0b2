import type { z } from 'zod';
import type { Config } from '../../config/config.js';
import {
  addDomain,
  challengeNameOf,
  deleteDomain,
  getDomain,
  listDomains,
  setPrimaryDomain,
  verifyDomain,
} from '../../domain/custom-domains/index.js';
import { customIssuerOf } from '../../domain/issuers.js';
import type { Org, OrgDomain } from '../../domain/types.js';
import { managementInput } from './api-input.js';
import { CreateDomainBody, DomainList, DomainRecord, UpdateDomainBody } from './domains-schemas.js';
import { created, endpoint, noContent, ok } from './endpoint.js';
import {
  apiError,
  createResponses,
  forbidden,
  invalid,
  MANAGEMENT,
  noOrg,
  ORG,
  unauthorized,
} from './responses.js';

const view = (
  config: Config,
  org: Pick<Org, 'issuerDomain'>,
  d: OrgDomain,
): z.output<typeof DomainRecord> => ({
  id: d.id,
  name: d.name,
  verified: d.verifiedAt !== null,
  verified_at: d.verifiedAt === null ? null : new Date(d.verifiedAt).toISOString(),
  primary: org.issuerDomain === d.name,
  issuer: customIssuerOf(config, d.name),
  txt_record: { name: challengeNameOf(d.name), type: 'TXT', value: d.token },
  created_at: new Date(d.createdAt).toISOString(),
});

const DOMAIN = { ...ORG, id: 'the domain id (`dom_…`)' } as const;
const noDomain = apiError('`not_found`: no such org, or no such domain in it');
const conflict = (words: string) => apiError(`\`conflict\`: ${words}`);
// Moving the org's issuer is for the people who own it: not its service accounts.
const read = { ...MANAGEMENT, scope: 'org:read', who: 'owners', people: true } as const;
const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners', people: true } as const;

/**
 * The org's own domains (owners only; members 403; DESIGN §21): add a name, publish the TXT
 * record it answers with, verify, then move the org's issuer there.
 */
export const DOMAIN_ENDPOINTS = [
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/domains',
      operationId: 'listDomains',
      summary: 'List the org’s own domains',
      params: ORG,
      responses: {
        200: { description: 'every domain, oldest first', schema: DomainList },
        401: unauthorized,
        403: forbidden,
        404: noOrg,
      },
    },
    async ({ deps, caller }) =>
      ok({ data: (await listDomains(deps, caller.org)).map((d) => view(deps.config, caller.org, d)) }),
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/domains',
      operationId: 'createDomain',
      summary: 'Add a domain: the answer names the TXT record that proves it is the org’s',
      params: ORG,
      body: { contentType: 'application/json', schema: CreateDomainBody, errors: 'invalid_request' },
      responses: {
        ...createResponses(DomainRecord),
        409: conflict('the org already has this domain, another org verified it, or the org has 20 domains'),
      },
    },
    async ({ deps, caller, body }) => {
      const domain = await managementInput(addDomain(deps, caller.org, body.name, caller.actor));
      return created(view(deps.config, caller.org, domain));
    },
  ),
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/domains/:id',
      operationId: 'getDomain',
      summary: 'One of the org’s domains',
      params: DOMAIN,
      responses: {
        200: { description: 'the domain', schema: DomainRecord },
        401: unauthorized,
        403: forbidden,
        404: noDomain,
      },
    },
    async ({ deps, caller, params }) =>
      ok(view(deps.config, caller.org, await getDomain(deps, caller.org, params.id))),
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/domains/:id/verify',
      operationId: 'verifyDomain',
      summary: 'Look the domain’s TXT record up now; verified when it holds the token',
      description:
        'Asks the DNS servers TESSERA_DNS_SERVERS names (default: the system’s) for `_tessera-challenge.<name>`. ' +
        'A failure stores nothing: publish or fix the record and ask again. A verified domain answers as it is.',
      params: DOMAIN,
      responses: {
        200: { description: 'the domain, verified', schema: DomainRecord },
        401: unauthorized,
        403: forbidden,
        404: noDomain,
        409: conflict(
          'no TXT record at the challenge name (`domain.txt.missing`), none holding the token (`domain.txt.mismatch`), or another org verified the domain (`domain.taken`); see `Tessera-Error-Code`',
        ),
        502: apiError('`bad_gateway`: the DNS servers did not answer (`domain.dns.unreachable`); try again'),
      },
    },
    async ({ deps, caller, params }) =>
      ok(view(deps.config, caller.org, await verifyDomain(deps, caller.org, params.id, caller.actor))),
  ),
  endpoint(
    {
      ...write,
      method: 'patch',
      path: '/organizations/:org/domains/:id',
      operationId: 'updateDomain',
      summary: 'Move the org’s issuer onto this verified domain (`primary: true`), or off it',
      description:
        'Discovery, tokens’ `iss`, the key set, cookies, passkeys, SAML and mail links follow the issuer. ' +
        'The host it leaves keeps serving discovery, the key set and introspection until the last token it issued has expired, and redirects its pages.',
      params: DOMAIN,
      body: { contentType: 'application/json', schema: UpdateDomainBody, errors: 'invalid_request' },
      responses: {
        200: { description: 'the domain as it now is', schema: DomainRecord },
        400: invalid,
        401: unauthorized,
        403: forbidden,
        404: noDomain,
        409: conflict('the domain is not verified (`domain.unverified`)'),
      },
    },
    async ({ deps, caller, params, body }) => {
      const { org, domain } = await setPrimaryDomain(deps, caller.org, params.id, body.primary, caller.actor);
      return ok(view(deps.config, org, domain));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'delete',
      path: '/organizations/:org/domains/:id',
      operationId: 'deleteDomain',
      summary: 'Delete a domain (not the one the issuer lives on)',
      params: DOMAIN,
      responses: {
        204: { description: 'deleted; no body' },
        401: unauthorized,
        403: forbidden,
        404: noDomain,
        409: conflict('the org’s issuer lives on this domain (`domain.primary`): move it off first'),
      },
    },
    async ({ deps, caller, params }) => {
      await deleteDomain(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
];
