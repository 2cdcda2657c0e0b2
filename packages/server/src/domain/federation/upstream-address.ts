import { isIP } from 'node:net';
import { forbiddenReason } from '../address-policy.js';
import type { CoreDeps } from '../core-deps.js';
import { failApi } from '../errors.js';
import { isLoopbackUrl } from '../webhooks/loopback-url.js';
import { MAX_ALLOWED_ENDPOINT_HOSTS } from './upstream-endpoints.js';

/**
 * A connection's upstream named by an address the outbound policy refuses (DESIGN §6, §17) is
 * refused when the connection is created or changed, 400 naming the setting that allows it: this
 * machine (`localhost`, 127.0.0.0/8, ::1, 0.0.0.0…) or a literal private, link-local (cloud metadata,
 * 169.254.169.254), reserved or multicast address, while TESSERA_OUTBOUND_ALLOW_PRIVATE is off.
 * Nothing is fetched to decide. A DNS name is judged when it is fetched, on the address it resolves
 * to (delivery/checked-lookup.ts).
 */

const HINT =
  'which connections may not reach; for local development set TESSERA_OUTBOUND_ALLOW_PRIVATE=1 (see README)';

/** Why `host` (URL.hostname) is not public, or null when it is a public address or a DNS name. */
function privateHost(url: URL): string | null {
  if (isLoopbackUrl(url.href)) return 'this machine (loopback)';
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return null;
  const reason = forbiddenReason(bare);
  return reason === null ? null : `a non-public address (${bare}: ${reason})`;
}

/** 400 when `url` (already parsed) names a non-public host while private addresses are off. */
export function refusePrivateUpstream(deps: Pick<CoreDeps, 'config'>, field: string, url: URL): void {
  if (deps.config.outboundAllowPrivate) return;
  const what = privateHost(url);
  if (what !== null) failApi('connection.url.private_address', `${field}: points at ${what}, ${HINT}`);
}

/**
 * `allowed_endpoint_hosts`: host names (with a port only when it is not the scheme's default), lower
 * case, at most MAX_ALLOWED_ENDPOINT_HOSTS, each public unless TESSERA_OUTBOUND_ALLOW_PRIVATE is on.
 */
export function checkEndpointHosts(deps: Pick<CoreDeps, 'config'>, hosts: readonly string[]): string[] {
  const out = [...new Set(hosts.map((h) => h.trim().toLowerCase()))];
  if (out.length > MAX_ALLOWED_ENDPOINT_HOSTS)
    failApi(
      'connection.endpoint_hosts.too_many',
      `allowed_endpoint_hosts: at most ${MAX_ALLOWED_ENDPOINT_HOSTS} hosts`,
    );
  for (const host of out) {
    let url: URL | null = null;
    try {
      url = new URL(`https://${host}/`);
    } catch {
      url = null;
    }
    if (url === null || url.host !== host || host === '')
      failApi(
        'connection.endpoint_hosts.invalid',
        `allowed_endpoint_hosts: "${host}" is not a host name (a port only when it is not 443; no scheme, path or user)`,
      );
    refusePrivateUpstream(deps, 'allowed_endpoint_hosts', url as URL);
  }
  return out;
}
