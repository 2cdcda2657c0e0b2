import { failApi } from '../errors.js';
import { isLoopbackHost } from '../loopback.js';
import type { WebhooksDeps } from './deps.js';

/**
 * Hosts that are not loopback by loopback.ts but reach this machine all the same: 0.0.0.0 and `[::]`
 * (the unspecified addresses connect to the local host) and IPv4-mapped 127.0.0.0/8 (`URL.hostname`
 * writes `[::ffff:127.0.0.1]` as `[::ffff:7f00:1]`).
 */
const ALSO_THIS_MACHINE = /^(0\.0\.0\.0|\[::\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/;

/**
 * Whether an https URL names this machine: a loopback host (loopback.ts: `localhost`, `*.localhost`,
 * 127.0.0.0/8, `::1`), also written with the DNS root's trailing dot (`localhost.`), or an address in
 * ALSO_THIS_MACHINE. The address policy refuses every delivery to it, so the API refuses it up front
 * with a hint (other private and DNS-named addresses are judged at delivery, once resolved).
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  return isLoopbackHost(name) || ALSO_THIS_MACHINE.test(host);
}

/**
 * A webhook URL on loopback is refused (400) while TESSERA_OUTBOUND_ALLOW_PRIVATE is off: every
 * delivery to it would fail, so the error says which setting allows it for local development.
 */
export function refuseLoopbackUrl(deps: Pick<WebhooksDeps, 'config'>, url: string): void {
  if (deps.config.outboundAllowPrivate || !isLoopbackUrl(url)) return;
  failApi(
    'webhook.url.loopback',
    'url: points at this machine (loopback), which webhooks may not reach; for local development set ' +
      'TESSERA_OUTBOUND_ALLOW_PRIVATE=1 (see README)',
  );
}
