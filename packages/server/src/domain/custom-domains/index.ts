/**
 * The public face of domain/custom-domains/ (the org's own domain, DESIGN §21): what the HTTP layer,
 * the runtime and the commands use of it.
 */
export type { CustomDomainsDeps } from './deps.js';
export { CHALLENGE_LABEL, challengeNameOf, checkDomainName } from './domain-names.js';
export {
  addDomain,
  DOMAINS_PER_ORG,
  deleteDomain,
  getDomain,
  listDomains,
  setPrimaryDomain,
  verifyDomain,
} from './domains.js';
export { type IssuerAtHost, issuerAtHost, orgOfCustomDomain } from './issuer-hosts.js';
export {
  TXT_RECORD_MAX_CHARS,
  TXT_RECORDS_READ,
  type TxtAnswer,
  type TxtRecords,
} from './txt-records.js';
