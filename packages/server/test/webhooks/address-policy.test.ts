import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forbiddenReason } from '../../src/domain/address-policy.js';

/** Every address a webhook must not reach (DESIGN §6), with the word its refusal names. */
const REFUSED: [address: string, reason: RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['10.0.0.1', /RFC 1918/],
  ['10.255.255.255', /RFC 1918/],
  ['172.16.0.1', /RFC 1918/],
  ['172.31.255.255', /RFC 1918/],
  ['192.168.1.1', /RFC 1918/],
  ['169.254.169.254', /link-local/],
  ['169.254.0.1', /link-local/],
  ['100.64.0.1', /CGNAT/],
  ['100.127.255.255', /CGNAT/],
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved/],
  ['192.0.2.10', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fc00::1', /unique local/],
  ['fd12:3456:789a::1', /unique local/],
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['febf::1', /link-local/],
  ['ff02::1', /multicast/],
  ['::ffff:127.0.0.1', /IPv4-mapped 127\.0\.0\.1: loopback/],
  ['::ffff:7f00:1', /IPv4-mapped 127\.0\.0\.1: loopback/],
  ['::ffff:10.1.2.3', /IPv4-mapped 10\.1\.2\.3/],
  ['::ffff:169.254.169.254', /IPv4-mapped 169\.254\.169\.254: link-local/],
  ['::ffff:192.168.0.1', /RFC 1918/],
  ['::ffff:100.64.0.1', /CGNAT/],
  ['::ffff:0.0.0.0', /unspecified/],
  ['::127.0.0.1', /IPv4-compatible/],
  ['64:ff9b::7f00:1', /NAT64 127\.0\.0\.1/],
  ['2002:7f00:1::1', /6to4 127\.0\.0\.1/],
  ['2001:db8::1', /documentation/],
  ['2001::1', /Teredo/],
  ['100::1', /outside global unicast/],
  ['[::1]', /loopback/],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('webhook address policy', () => {
  for (const [address, reason] of REFUSED) {
    it(`refuses ${address}`, () => {
      const why = forbiddenReason(address);
      assert.ok(why, `${address} was allowed`);
      assert.match(why, reason);
    });
  }

  it('allows public unicast addresses', () => {
    for (const address of ALLOWED) assert.equal(forbiddenReason(address), null, address);
  });

  it('refuses what is not an address', () => {
    assert.equal(forbiddenReason('localhost'), 'not an IP address');
  });
});
