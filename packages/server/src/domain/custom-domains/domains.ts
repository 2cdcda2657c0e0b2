import { constantTimeEqual } from '../../crypto/derived-keys.js';
import { newSecret } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import {
  deleteOrgDomainRow,
  findOrgDomain,
  forgetFormerIssuer,
  insertOrgDomain,
  isDomainVerified,
  listOrgDomains,
  markOrgDomainVerified,
  recordIssuerMove,
} from '../../storage/repos/org-domains.js';
import { findOrgById, lockOrg, setIssuerDomain } from '../../storage/repos/orgs.js';
import { recordAudit, recordUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { fail, failApi } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { tokensOutliveMs } from '../token-lifetimes.js';
import type { Actor, Org, OrgDomain } from '../types.js';
import type { CustomDomainsDeps } from './deps.js';
import { challengeNameOf, checkDomainName } from './domain-names.js';

/**
 * An org's own domains (DESIGN §21): an owner adds a name, publishes the random token Tessera
 * gives it as the TXT record `_tessera-challenge.<name>`, asks for verification (as often as it
 * takes), and may then move the org's issuer there. One org only verifies a name.
 */

/** How many domains one org may add. */
export const DOMAINS_PER_ORG = 20;

export const domainSnapshot = (d: OrgDomain, org: Pick<Org, 'issuerDomain'>) => ({
  id: d.id,
  name: d.name,
  verified: d.verifiedAt !== null,
  verifiedAt: d.verifiedAt === null ? null : new Date(d.verifiedAt).toISOString(),
  primary: org.issuerDomain === d.name,
  createdAt: new Date(d.createdAt).toISOString(),
});

/** The token a domain's TXT record must hold: 32 random bytes, base64url, behind a readable prefix. */
const newChallengeToken = (): string => newSecret('tessera-domain-verification=');

/** Adds `name` to the org, unverified, with a new challenge token (`domain.created`). */
export async function addDomain(
  deps: Pick<CustomDomainsDeps, 'unitOfWork' | 'config' | 'store'>,
  org: Org,
  rawName: string,
  actor: Actor,
): Promise<OrgDomain> {
  if (org.isConsole) failApi('domain.console', 'the console’s issuer is TESSERA_URL: it takes no domain');
  const name = checkDomainName(deps.config, rawName);
  const now = clock.now();
  const domain: OrgDomain = {
    id: newResourceId('domain'),
    orgId: org.id,
    name,
    token: newChallengeToken(),
    verifiedAt: null,
    createdAt: now,
  };
  await deps.unitOfWork.run(async (tx) => {
    await lockOrg(tx, org.id);
    if (await isDomainVerified(tx, name)) fail('domain.taken', `${name} is verified by another organization`);
    if ((await listOrgDomains(tx, org.id)).length >= DOMAINS_PER_ORG)
      fail('domain.limit', `an organization has at most ${DOMAINS_PER_ORG} domains`);
    if (!(await insertOrgDomain(tx, domain)))
      fail('domain.exists', `${name} is already one of this organization’s domains`);
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'domain',
      verb: 'created',
      actor,
      at: now,
      data: domainSnapshot(domain, org),
    });
  });
  return domain;
}

export const listDomains = (deps: Pick<CustomDomainsDeps, 'store'>, org: Org): Promise<OrgDomain[]> =>
  listOrgDomains(deps.store, org.id);

async function requireDomain(store: Handle, org: Org, id: string): Promise<OrgDomain> {
  const domain = isIdOf('domain', id) ? await findOrgDomain(store, org.id, id) : null;
  return domain ?? fail('domain.not_found', 'no such domain in this organization');
}

export const getDomain = (deps: Pick<CustomDomainsDeps, 'store'>, org: Org, id: string): Promise<OrgDomain> =>
  requireDomain(deps.store, org, id);

/**
 * Asks DNS for `_tessera-challenge.<name>` and, when one of its TXT records is the domain's token,
 * marks the domain verified (`domain.updated`). Each failure says which it is: no record, records
 * without the token, DNS that did not answer; none stores anything, so the owner fixes the record
 * and asks again. A domain already verified stays so (no lookup).
 */
export async function verifyDomain(
  deps: Pick<CustomDomainsDeps, 'unitOfWork' | 'store' | 'txtRecords'>,
  org: Org,
  id: string,
  actor: Actor,
): Promise<OrgDomain> {
  const domain = await requireDomain(deps.store, org, id);
  if (domain.verifiedAt !== null) return domain;
  if (await isDomainVerified(deps.store, domain.name))
    fail('domain.taken', `${domain.name} is verified by another organization`);
  const record = challengeNameOf(domain.name);
  const answer = await deps.txtRecords.lookup(record);
  if (answer.kind === 'unreachable')
    fail('domain.dns.unreachable', `the DNS servers did not answer for ${record}: try again later`);
  if (answer.kind === 'none') fail('domain.txt.missing', `no TXT record at ${record} yet`);
  if (answer.kind === 'records' && !answer.values.some((value) => constantTimeEqual(value, domain.token)))
    fail(
      'domain.txt.mismatch',
      `${answer.values.length === 1 ? 'the TXT record' : `none of the ${answer.values.length} TXT records`} at ${record} ${answer.values.length === 1 ? 'is not' : 'is'} this domain’s token`,
    );
  const now = clock.now();
  const verified: OrgDomain = { ...domain, verifiedAt: now };
  await deps.unitOfWork.run(async (tx) => {
    // Of two orgs verifying one name at once, the unique index lets one write it.
    if (!(await markOrgDomainVerified(tx, verified, now)))
      fail('domain.taken', `${domain.name} is verified by another organization`);
    const snapshots = { before: domainSnapshot(domain, org), after: domainSnapshot(verified, org) };
    await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'domain', snapshots);
  });
  return verified;
}

/**
 * Moves the org's issuer onto its verified domain `id` (`primary` true), or, for the domain it is
 * on, back to Tessera's host for the org (`primary` false). The host left keeps serving what
 * verifies the tokens it issued until they have all expired (org-routing in the HTTP layer reads
 * this). Audited as the domain's `domain.updated` (`primary`). Returns the org as it now is.
 */
export async function setPrimaryDomain(
  deps: Pick<CustomDomainsDeps, 'unitOfWork' | 'store'>,
  org: Org,
  id: string,
  primary: boolean,
  actor: Actor,
): Promise<{ org: Org; domain: OrgDomain }> {
  return deps.unitOfWork.run(async (tx) => {
    await lockOrg(tx, org.id);
    const current = (await findOrgById(tx, org.id)) ?? fail('domain.not_found', 'no such organization');
    const domain = await requireDomain(tx, current, id);
    if (primary && domain.verifiedAt === null)
      fail('domain.unverified', `${domain.name} is not verified: publish its TXT record and verify it first`);
    const from = current.issuerDomain;
    const to = primary ? domain.name : from === domain.name ? null : from;
    if (from === to) return { org: current, domain };
    const now = clock.now();
    await setIssuerDomain(tx, org.id, to, now);
    await recordIssuerMove(tx, org.id, from, to, now, now + (await tokensOutliveMs(tx, org.id)));
    const moved: Org = { ...current, issuerDomain: to, updatedAt: now };
    const snapshots = { before: domainSnapshot(domain, current), after: domainSnapshot(domain, moved) };
    await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'domain', snapshots);
    return { org: moved, domain };
  });
}

/**
 * Deletes a domain (`domain.deleted`). The domain the issuer is on is refused: move the issuer off
 * it first. A host the issuer left stops serving at once when its domain is deleted.
 */
export async function deleteDomain(
  deps: Pick<CustomDomainsDeps, 'unitOfWork'>,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    await lockOrg(tx, org.id);
    const current = (await findOrgById(tx, org.id)) ?? fail('domain.not_found', 'no such organization');
    const domain = await requireDomain(tx, current, id);
    if (current.issuerDomain === domain.name)
      fail('domain.primary', `the issuer lives on ${domain.name}: move it to another domain first`);
    await deleteOrgDomainRow(tx, org.id, domain.id);
    await forgetFormerIssuer(tx, org.id, domain.name);
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'domain',
      verb: 'deleted',
      actor,
      data: domainSnapshot(domain, current),
    });
  });
}
