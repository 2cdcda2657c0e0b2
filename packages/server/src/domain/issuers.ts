import type { Config } from '../config/config.js';
import type { Org } from './types.js';

/** The console issuer is `${TESSERA_URL}/`; an org's is `${scheme}://${slug}.${issuerDomain}/` (DESIGN §4). */
export function issuerOf(config: Config, org: Pick<Org, 'slug' | 'isConsole'>): string {
  return org.isConsole ? `${config.baseUrl}/` : `${config.scheme}://${org.slug}.${config.issuerDomain}/`;
}

/** The base address requests for this org go to (the issuer without its trailing slash). */
export function originOf(config: Config, org: Pick<Org, 'slug' | 'isConsole'>): string {
  return issuerOf(config, org).slice(0, -1);
}
