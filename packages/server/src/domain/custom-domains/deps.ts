import type { FederationDeps } from '../federation/deps.js';
import type { TxtRecords } from './txt-records.js';

/**
 * What domain/custom-domains/ needs from the runtime: the features' below it and the DNS it asks a
 * domain's TXT record of (delivery/dns-txt-records.ts, the servers TESSERA_DNS_SERVERS names).
 */
export interface CustomDomainsDeps extends FederationDeps {
  readonly txtRecords: TxtRecords;
}
