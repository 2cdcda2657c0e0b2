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
import { isoTime, isoTimeOrNull } from '../../domain/iso-time.js';
import { customIssuerOf } from '../../domain/issuers.js';
import type { Org, OrgDomain } from '../../domain/types.js';
import { managementInput } from './api-input.js';
import { CreateDomainBody, DomainList, DomainRecord, UpdateDomainBody } from './domains-schemas.js';
import { ownedItems } from './owned-items.js';
import { apiError } from './responses.js';

const view = (
  config: Config,
  org: Pick<Org, 'issuerDomain'>,
  d: OrgDomain,
): z.output<typeof DomainRecord> => ({
  id: d.id,
  name: d.name,
  verified: d.verifiedAt !== null,
  verified_at: isoTimeOrNull(d.verifiedAt),
  primary: org.issuerDomain === d.name,
  issuer: customIssuerOf(config, d.name),
  txt_record: { name: challengeNameOf(d.name), type: 'TXT', value: d.token },
  created_at: isoTime(d.createdAt),
});

const domains = ownedItems({
  collection: 'domains',
  noun: 'domain',
  prefix: 'dom',
  // Moving the org's issuer is for the people who own it: not its service accounts.
  people: true,
});
const conflict = (words: string) => apiError(`\`conflict\`: ${words}`);

/**
 * The org's own domains (owners only; members 403; DESIGN §21): add a name, publish the TXT
 * record it answers with, verify, then move the org's issuer there.
 */
export const DOMAIN_ENDPOINTS = [
  domains.all(
    {
      operationId: 'listDomains',
      summary: 'List the org’s own domains',
      schema: DomainList,
      answer: 'every domain, oldest first',
    },
    async (deps, org) => ({ data: (await listDomains(deps, org)).map((d) => view(deps.config, org, d)) }),
  ),
  domains.create(
    {
      operationId: 'createDomain',
      summary: 'Add a domain: the answer names the TXT record that proves it is the org’s',
      body: CreateDomainBody,
      schema: DomainRecord,
      refusals: {
        409: conflict('the org already has this domain, another org verified it, or the org has 20 domains'),
      },
    },
    async (deps, caller, body) =>
      view(
        deps.config,
        caller.org,
        await managementInput(addDomain(deps, caller.org, body.name, caller.actor)),
      ),
  ),
  domains.get(
    { operationId: 'getDomain', summary: 'One of the org’s domains', schema: DomainRecord },
    async (deps, org, id) => view(deps.config, org, await getDomain(deps, org, id)),
  ),
  domains.act(
    {
      operationId: 'verifyDomain',
      summary: 'Look the domain’s TXT record up now; verified when it holds the token',
      description:
        'Asks the DNS servers TESSERA_DNS_SERVERS names (default: the system’s) for `_tessera-challenge.<name>`. ' +
        'A failure stores nothing: publish or fix the record and ask again. A verified domain answers as it is.',
      at: '/verify',
      schema: DomainRecord,
      answer: 'the domain, verified',
      refusals: {
        409: conflict(
          'no TXT record at the challenge name (`domain.txt.missing`), none holding the token (`domain.txt.mismatch`), or another org verified the domain (`domain.taken`); see `Tessera-Error-Code`',
        ),
        502: apiError('`bad_gateway`: the DNS servers did not answer (`domain.dns.unreachable`); try again'),
      },
    },
    async (deps, org, id, actor) => view(deps.config, org, await verifyDomain(deps, org, id, actor)),
  ),
  domains.update(
    {
      operationId: 'updateDomain',
      summary: 'Move the org’s issuer onto this verified domain (`primary: true`), or off it',
      description:
        'Discovery, tokens’ `iss`, the key set, cookies, passkeys, SAML and mail links follow the issuer. ' +
        'The host it leaves keeps serving discovery, the key set and introspection until the last token it issued has expired, and redirects its pages.',
      body: UpdateDomainBody,
      schema: DomainRecord,
      answer: 'the domain as it now is',
      refusals: { 409: conflict('the domain is not verified (`domain.unverified`)') },
    },
    async (deps, caller, id, body) => {
      const { org, domain } = await setPrimaryDomain(deps, caller.org, id, body.primary, caller.actor);
      return view(deps.config, org, domain);
    },
  ),
  domains.remove(
    {
      operationId: 'deleteDomain',
      summary: 'Delete a domain (not the one the issuer lives on)',
      refusals: {
        409: conflict('the org’s issuer lives on this domain (`domain.primary`): move it off first'),
      },
    },
    deleteDomain,
  ),
];
