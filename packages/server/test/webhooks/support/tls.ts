import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestTls {
  key: string;
  cert: string;
  /** The certificate's file: NODE_EXTRA_CA_CERTS for child processes. */
  certPath: string;
}

/** Names the receiver's certificate holds (all of them resolve to, or are dialled at, loopback in tests). */
export const RECEIVER_NAMES = ['localhost', 'hooks.localhost', 'rebind.example'];

let made: TestTls | undefined;

/**
 * A self-signed certificate made for this test run with the openssl command (Node has no X.509
 * writer). Delivery trusts it through the worker's test-only `ca` option in this process, and
 * through NODE_EXTRA_CA_CERTS in child processes; nothing else trusts it.
 */
export function testTls(): TestTls {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), 'tessera-webhook-tls-'));
  // Child processes read the certificate's file while this process runs; nothing needs it after.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  const san = [...RECEIVER_NAMES.map((n) => `DNS:${n}`), 'IP:127.0.0.1', 'IP:::1'].join(',');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=tessera test receiver',
      '-addext',
      `subjectAltName=${san}`,
    ],
    { stdio: 'ignore' },
  );
  made = { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
  return made;
}
