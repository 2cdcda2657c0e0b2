import { findFormerIssuerOrg, listFormerIssuers } from '../../storage/repos/org-domains.js';
import { findOrgByIssuerDomain } from '../../storage/repos/orgs.js';
import { clock } from '../clock.js';
import type { CoreDeps } from '../core-deps.js';
import type { Org } from '../types.js';

/**
 * Which org a custom domain's host reaches, and as which issuer (DESIGN §21). A verified domain
 * the org's issuer lives on reaches it; a domain the issuer left reaches it while that host still
 * serves the tokens it issued; no other name does (an unverified or a deleted domain reaches no
 * org, whatever Host a request claims).
 */
export async function orgOfCustomDomain(deps: Pick<CoreDeps, 'store'>, domain: string): Promise<Org | null> {
  const current = await findOrgByIssuerDomain(deps.store, domain);
  if (current) return current;
  return (await findFormerIssuerOrg(deps.store, domain, clock.now()))?.org ?? null;
}

/**
 * What a request to the org on `addressed` (a custom domain, or null: its host under Tessera) is:
 * the org's issuer (`current`); a host the issuer left that still serves discovery, the key set and
 * introspection for the tokens it issued (`former`, with the org as that issuer); or a host the
 * issuer left whose tokens have all expired (`gone`).
 */
export type IssuerAtHost = { kind: 'current' } | { kind: 'former'; asIssued: Org } | { kind: 'gone' };

export async function issuerAtHost(
  deps: Pick<CoreDeps, 'store'>,
  org: Org,
  addressed: string | null,
): Promise<IssuerAtHost> {
  if (org.issuerDomain === addressed) return { kind: 'current' };
  const former = (await listFormerIssuers(deps.store, org.id)).find((f) => f.domain === addressed);
  return former !== undefined && former.servesUntil > clock.now()
    ? { kind: 'former', asIssued: { ...org, issuerDomain: addressed } }
    : { kind: 'gone' };
}
