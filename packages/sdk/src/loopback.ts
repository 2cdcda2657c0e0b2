/**
 * What loopback is, for Tessera and its packages: `localhost` and every name under it (RFC 6761
 * §6.3; browsers resolve them to loopback), 127.0.0.0/8 and ::1. Nothing else: not 0.0.0.0, not
 * ::ffff:127.0.0.1, not `localhost.` with its trailing dot.
 *
 * Rules that differ say so where they live: http redirect URIs take only the contract's
 * `localhost`, `127.0.0.1` and `[::1]` (RFC 8252 §7.3 names the two literals; server:
 * domain/sign-in/redirect-uris.ts); a webhook URL naming this machine adds 0.0.0.0, `[::]` and
 * IPv4-mapped 127.0.0.0/8 (server: domain/webhooks/loopback-url.ts).
 *
 * The same file is at packages/server/src/domain/loopback.ts, packages/koa/src/loopback.ts and
 * packages/sdk/src/loopback.ts, because the packages never import the server;
 * packages/server/test/operations/loopback.test.ts proves the three copies answer alike.
 */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const LOOPBACK_IPV4 = new RegExp(`^127(\\.${OCTET}){3}$`);

/**
 * Whether a host name is loopback. Takes `URL.hostname` or a Host without its port: IPv6 brackets
 * optional, any case.
 *
 * @example
 *   isLoopbackHost('acme.localhost'); // true
 *   isLoopbackHost('127.0.0.2'); // true
 *   isLoopbackHost('[::1]'); // true
 *   isLoopbackHost('localhost.example.com'); // false
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || LOOPBACK_IPV4.test(h);
}
