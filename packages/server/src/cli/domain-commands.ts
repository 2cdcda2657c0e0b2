import {
  addDomain,
  challengeNameOf,
  deleteDomain,
  listDomains,
  setPrimaryDomain,
  verifyDomain,
} from '../domain/custom-domains/index.js';
import { type Org, type OrgDomain, SYSTEM } from '../domain/types.js';
import { required, UsageError } from './args.js';
import { deletion, inOrg, listing } from './in-org.js';
import type { Commands } from './usage.js';

type DomainCommand = 'domain add' | 'domain list' | 'domain verify' | 'domain primary' | 'domain delete';

const shown = (d: OrgDomain, org: Pick<Org, 'issuerDomain'>) => ({
  id: d.id,
  name: d.name,
  verified: d.verifiedAt !== null,
  verifiedAt: d.verifiedAt === null ? null : new Date(d.verifiedAt).toISOString(),
  primary: org.issuerDomain === d.name,
  txtRecord: { name: challengeNameOf(d.name), type: 'TXT', value: d.token },
  createdAt: new Date(d.createdAt).toISOString(),
});

/** The org's own domains (DESIGN §21), through the domain functions the API uses. */
export const DOMAIN_COMMANDS: Commands<DomainCommand> = {
  'domain add'(f) {
    const [slug, name] = [required(f.org, 'org'), required(f.name, 'name')];
    return inOrg(slug, async (deps, org) => {
      return shown(await addDomain(deps, org, name, SYSTEM), org);
    });
  },
  'domain list': listing(listDomains, (d, _deps, org) => shown(d, org)),
  'domain verify'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    return inOrg(slug, async (deps, org) => {
      return shown(await verifyDomain(deps, org, id, SYSTEM), org);
    });
  },
  'domain primary'(f) {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    if (f.off === true && f.on === true) throw new UsageError('give --on or --off, not both');
    const primary = f.off !== true;
    return inOrg(slug, async (deps, org) => {
      const { org: moved, domain } = await setPrimaryDomain(deps, org, id, primary, SYSTEM);
      return shown(domain, moved);
    });
  },
  'domain delete': deletion(deleteDomain),
};
