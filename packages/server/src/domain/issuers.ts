import type { Config } from '../config/config.js';
import type { Org } from './types.js';

/** The first segment of every org's path under path issuers: `/o/<slug>/`. */
export const ORG_PATH_SEGMENT = 'o';

/** An org slug as it may appear in a host or a path (lowercase letters, digits, hyphens). */
export const SLUG_IN_ADDRESS = /^[a-z0-9-]+$/;

/** The path every org endpoint lives under with path issuers (no trailing slash): `/o/acme`. */
export const orgPathOf = (slug: string): string => `/${ORG_PATH_SEGMENT}/${slug}`;

/**
 * The one place an org's issuer is built. The console's is `${TESSERA_URL}/`. An org's is
 * `${scheme}://${slug}.${issuerDomain}/` with host issuers (the default), or
 * `${TESSERA_URL}/o/${slug}/` with TESSERA_ISSUER_STYLE=path (DESIGN §4).
 */
export function issuerOf(config: Config, org: Pick<Org, 'slug' | 'isConsole'>): string {
  if (org.isConsole) return `${config.baseUrl}/`;
  return config.issuerStyle === 'path'
    ? `${config.baseUrl}${orgPathOf(org.slug)}/`
    : `${config.scheme}://${org.slug}.${config.issuerDomain}/`;
}

/**
 * The base address requests for this org go to (the issuer without its trailing slash): an
 * endpoint's URL is this followed by its path (`${originOf(…)}/oauth/token`).
 */
export function originOf(config: Config, org: Pick<Org, 'slug' | 'isConsole'>): string {
  return issuerOf(config, org).slice(0, -1);
}

/** How org issuers look on this deployment, for the start-up line: `http://{slug}.localhost:4000/`. */
export const issuerForm = (config: Config): string => issuerOf(config, { slug: '{slug}', isConsole: false });
