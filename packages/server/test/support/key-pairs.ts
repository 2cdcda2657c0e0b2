import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { keyPairs } from '../../src/crypto/signing-keys.js';
import { cachedKey, generateKey } from './key-cache.mjs';

/**
 * Real RSA-2048 key pairs for the orgs the tests create, generated ahead of time: every org (and
 * every test server's console org) gets two, and generating one costs ~170 ms of CPU, which summed to
 * minutes of a whole run. The n-th key a test process asks for is the n-th file of a cache kept
 * outside the checkout (key-cache.mjs, which `.ci/run` fills while npm installs), generated and
 * written the first time any run needs it. So within one process every key is distinct, as every
 * org's would be; two processes (separate servers and stores) draw the same ones. The keys are the
 * tests' only: the product generates its own (src/crypto/signing-keys.ts), and so do the `tessera`
 * processes the tests start.
 */
let drawn = 0;

async function nextPair(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  const n = drawn++;
  const pem = cachedKey(n);
  const privateKey = pem === null ? await generateKey(n) : createPrivateKey(pem);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

keyPairs.generate = nextPair;
