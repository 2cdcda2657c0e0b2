import type { Config } from '../config/config.js';
import type { Org } from './types.js';

/** The first segment of every org's path under path issuers: `/o/<slug>/`. */
export const ORG_PATH_SEGMENT = 'o';

/** An org slug as it may appear in a host or a path (lowercase letters, digits, hyphens). */
export const SLUG_IN_ADDRESS = /^[a-z0-9-]+$/;

/** The path every org endpoint lives under with path issuers (no trailing slash): `/o/acme`. */
export const orgPathOf = (slug: string): string => `/${ORG_PATH_SEGMENT}/${slug}`;

/** The org fields its issuer is built from. */
export type IssuerOwner = Pick<Org, 'slug' | 'isConsole' | 'issuerDomain'>;

/**
 * The port custom domains are served on: the one org hosts are (TESSERA_ISSUER_DOMAIN's, or
 * TESSERA_URL's), since the same proxy answers both; none in production, where it is 443.
 */
const portSuffixOf = (config: Config): string => /:\d+$/.exec(config.issuerDomain)?.[0] ?? '';

/** The issuer of an org that lives on its verified custom domain `domain` (DESIGN §21). */
export const customIssuerOf = (config: Config, domain: string): string =>
  `${config.scheme}://${domain}${portSuffixOf(config)}/`;

/** The host (and port) a custom domain is addressed by: what a request's `Host` says. */
export const customHostOf = (config: Config, domain: string): string => `${domain}${portSuffixOf(config)}`;

/**
 * The one place an org's issuer is built. The console's is `${TESSERA_URL}/`. An org that moved to
 * its verified custom domain has `${scheme}://${issuerDomain}/` (DESIGN §21). Else an org's is
 * `${scheme}://${slug}.${issuerDomain}/` with host issuers (the default), or
 * `${TESSERA_URL}/o/${slug}/` with TESSERA_ISSUER_STYLE=path (DESIGN §4).
 */
export function issuerOf(config: Config, org: IssuerOwner): string {
  if (org.isConsole) return `${config.baseUrl}/`;
  if (org.issuerDomain) return customIssuerOf(config, org.issuerDomain);
  return config.issuerStyle === 'path'
    ? `${config.baseUrl}${orgPathOf(org.slug)}/`
    : `${config.scheme}://${org.slug}.${config.issuerDomain}/`;
}

/**
 * The base address requests for this org go to (the issuer without its trailing slash): an
 * endpoint's URL is this followed by its path (`${originOf(…)}/oauth/token`).
 */
export function originOf(config: Config, org: IssuerOwner): string {
  return issuerOf(config, org).slice(0, -1);
}

/** How org issuers look on this deployment, for the start-up line: `http://{slug}.localhost:4000/`. */
export const issuerForm = (config: Config): string =>
  issuerOf(config, { slug: '{slug}', isConsole: false, issuerDomain: null });
