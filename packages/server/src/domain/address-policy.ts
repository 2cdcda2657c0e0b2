import { isIP } from 'node:net';

/**
 * Which IP addresses an outbound fetch may connect to (DESIGN §6, §13, §17): webhook deliveries,
 * metadata documents, clients' key sets and connections' upstream calls alike. Checked on the address
 * actually dialled, after DNS resolution (delivery/checked-lookup.ts), so a public name pointing at an
 * internal address is refused as well; the domain reads it too, to refuse an address written into a
 * setting before anything is fetched. Returns why an address is refused, or null when it is a public
 * unicast address.
 */
export function forbiddenReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return ipv4Reason(parseIpv4(bare));
  if (family === 6) return ipv6Reason(parseIpv6(bare));
  return 'not an IP address';
}

type Range = readonly [prefix: readonly number[], bits: number, reason: string];

const V4: readonly Range[] = [
  [[0], 8, 'unspecified ("this network", 0.0.0.0/8)'],
  [[10], 8, 'private (RFC 1918)'],
  [[100, 64], 10, 'shared address space (CGNAT, 100.64.0.0/10)'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local (cloud metadata lives here)'],
  [[172, 16], 12, 'private (RFC 1918)'],
  [[192, 0, 0], 24, 'reserved (IETF protocol assignments)'],
  [[192, 0, 2], 24, 'reserved (documentation)'],
  [[192, 88, 99], 24, 'reserved (6to4 relay)'],
  [[192, 168], 16, 'private (RFC 1918)'],
  [[198, 18], 15, 'reserved (benchmarking)'],
  [[198, 51, 100], 24, 'reserved (documentation)'],
  [[203, 0, 113], 24, 'reserved (documentation)'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved (240.0.0.0/4, broadcast included)'],
];

/** IPv6 is allowed only inside global unicast 2000::/3, minus these. */
const V6: readonly Range[] = [
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'reserved (documentation)'],
  [[0x20, 0x01, 0x00], 23, 'reserved (IETF protocol assignments, Teredo included)'],
  [[0x3f, 0xff], 20, 'reserved (documentation)'],
];

function inRange(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Reason(bytes: number[]): string | null {
  for (const [prefix, bits, reason] of V4) if (inRange(bytes, prefix, bits)) return reason;
  return null;
}

function ipv6Reason(b: number[]): string | null {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 15) && b[15] === 0) return 'unspecified (::)';
  if (zeros(0, 15) && b[15] === 1) return 'loopback (::1)';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judged as the IPv4 address they carry.
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return embedded(b.slice(12), 'IPv4-mapped');
  if (zeros(0, 12)) return embedded(b.slice(12), 'IPv4-compatible') ?? 'reserved (IPv4-compatible)';
  // NAT64 64:ff9b::/96 and 6to4 2002::/16 reach the IPv4 address inside them.
  if (inRange(b, [0x00, 0x64, 0xff, 0x9b], 32) && zeros(4, 12)) return embedded(b.slice(12), 'NAT64');
  if (inRange(b, [0x20, 0x02], 16)) return embedded(b.slice(2, 6), '6to4');
  if (inRange(b, [0xfc], 7)) return 'unique local (fc00::/7)';
  if (inRange(b, [0xfe, 0x80], 10)) return 'link-local (fe80::/10)';
  if (inRange(b, [0xfe, 0xc0], 10)) return 'site-local (fec0::/10)';
  if (inRange(b, [0xff], 8)) return 'multicast';
  if (!inRange(b, [0x20], 3)) return 'reserved (outside global unicast 2000::/3)';
  for (const [prefix, bits, reason] of V6) if (inRange(b, prefix, bits)) return reason;
  return null;
}

function embedded(v4: number[], kind: string): string | null {
  const reason = ipv4Reason(v4);
  return reason === null ? null : `${kind} ${v4.join('.')}: ${reason}`;
}

function parseIpv4(text: string): number[] {
  return text.split('.').map(Number);
}

/** Sixteen bytes of a valid IPv6 text (isIP said so): `::` expanded, a dotted IPv4 tail converted. */
function parseIpv6(text: string): number[] {
  let body = text.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (dotted?.[1]) {
    tail.push(...parseIpv4(dotted[1]));
    body = body.slice(0, -dotted[1].length);
    body = body.endsWith('::') ? body : body.replace(/:$/, '');
  }
  const [head = '', rest] = body.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const missing = 8 - tail.length / 2 - left.length - right.length;
  const all = [...left, ...Array<number>(rest === undefined ? 0 : missing).fill(0), ...right];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  return [...bytes, ...tail];
}
