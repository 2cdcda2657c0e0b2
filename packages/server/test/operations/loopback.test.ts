import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isLoopbackHost as koa } from '../../../koa/src/loopback.js';
import { isLoopbackHost as sdk } from '../../../sdk/src/loopback.js';
import { isLoopbackHost as server } from '../../src/domain/loopback.js';

/**
 * Loopback is defined once (packages/server/src/domain/loopback.ts) and copied into koa and sdk,
 * which never import the server. Each copy gets the same table and must give the table's answer:
 * `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 are loopback, nothing else is.
 */
const copies = { server, koa, sdk };

const HOSTS: [host: string, loopback: boolean][] = [
  ['localhost', true],
  ['LOCALHOST', true],
  ['acme.localhost', true],
  ['a.b.localhost', true],
  ['Acme.LocalHost', true],
  ['127.0.0.1', true],
  ['127.0.0.2', true],
  ['127.1.2.3', true],
  ['127.255.255.255', true],
  ['::1', true],
  ['[::1]', true],
  ['localhost.', false],
  ['localhost.example.com', false],
  ['xlocalhost', false],
  ['localhostx', false],
  ['example.com', false],
  ['', false],
  ['128.0.0.1', false],
  ['126.0.0.1', false],
  ['127.0.0.256', false],
  ['127.0.0', false],
  ['127.0.0.1.5', false],
  ['127.00.0.1', false],
  ['127.0.0.1.nip.io', false],
  ['0.0.0.0', false],
  ['10.0.0.1', false],
  ['::', false],
  ['[::2]', false],
  ['::ffff:127.0.0.1', false],
  ['[::ffff:7f00:1]', false],
];

/** URLs, judged by their `URL.hostname` (which normalizes 127.1, 0x7f.0.0.1 and IPv6 spellings). */
const URLS: [url: string, loopback: boolean][] = [
  ['http://localhost:4000/', true],
  ['http://acme.localhost:4000/', true],
  ['http://127.0.0.1:4000', true],
  ['http://127.1/', true],
  ['http://0x7f.0.0.1/', true],
  ['http://2130706434/', true],
  ['http://[::1]:4000/', true],
  ['http://[0:0:0:0:0:0:0:1]/', true],
  ['https://auth.example.com/', false],
  ['http://10.0.0.1:4000/', false],
  ['http://[::ffff:127.0.0.1]/', false],
  ['http://localhost.example.com/', false],
];

describe('one definition of loopback, three copies', () => {
  test('the copies are the same file', () => {
    const text = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
    const original = text('../../src/domain/loopback.ts');
    assert.equal(text('../../../koa/src/loopback.ts'), original);
    assert.equal(text('../../../sdk/src/loopback.ts'), original);
  });

  for (const [name, isLoopbackHost] of Object.entries(copies)) {
    test(`${name}: each host of the table gets the table's answer`, () => {
      const answers = HOSTS.map(([host]) => [host, isLoopbackHost(host)]);
      assert.deepEqual(answers, HOSTS);
    });

    test(`${name}: each URL of the table gets the table's answer`, () => {
      const answers = URLS.map(([url]) => [url, isLoopbackHost(new URL(url).hostname)]);
      assert.deepEqual(answers, URLS);
    });
  }
});
