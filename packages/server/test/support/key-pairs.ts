import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keyPairs } from '../../src/crypto/signing-keys.js';

/**
 * Real RSA-2048 key pairs for the orgs the tests create, generated ahead of time: every org (and
 * every test server's console org) gets two, and generating one costs ~170 ms of CPU, which summed to
 * minutes of a whole run. The n-th key a test process asks for is the n-th file of a cache kept
 * outside the checkout (TESSERA_TEST_KEY_CACHE, default ~/.cache/tessera-test-keys/), generated and
 * written the first time any run needs it. So within one process every key is distinct, as every
 * org's would be; two processes (separate servers and stores) draw the same ones. The keys are the
 * tests' only: the product generates its own (src/crypto/signing-keys.ts), and so do the `tessera`
 * processes the tests start.
 */
const generate = promisify(generateKeyPair);
const DIR = process.env.TESSERA_TEST_KEY_CACHE ?? join(homedir(), '.cache', 'tessera-test-keys');
let drawn = 0;

async function nextPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  const file = join(DIR, `rsa-2048-${drawn++}.pem`);
  try {
    const privateKey = createPrivateKey(readFileSync(file, 'utf8'));
    return { privateKey, publicKey: createPublicKey(privateKey) };
  } catch {
    const pair = await generate('rsa', { modulusLength: 2048 });
    try {
      mkdirSync(DIR, { recursive: true, mode: 0o700 });
      // Whole or not at all: a run reading it at the same moment never sees half a key.
      const partial = `${file}.${process.pid}.tmp`;
      writeFileSync(partial, pair.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
      renameSync(partial, file);
    } catch {
      // Not kept (a read-only home, say): the next run generates it again.
    }
    return pair;
  }
}

keyPairs.generate = nextPair;
