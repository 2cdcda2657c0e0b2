import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The caller's address as rate limits see it. `request.ip` already honours TESSERA_TRUST_PROXY
 * (X-Forwarded-For is read only that many hops deep). IPv4-mapped IPv6 counts as IPv4, and an
 * IPv6 caller is counted by its /64, since one host usually holds the whole prefix.
 */
export function rateLimitKey(request: FastifyRequest): string {
  return ipBucket(request.ip);
}

export function ipBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  return `${expand(ip).slice(0, 4).join(':')}::/64`;
}

function expand(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = ip.includes('::') ? [...left, ...Array(missing).fill('0'), ...right] : left;
  return groups.map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
