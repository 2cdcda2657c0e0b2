// The test processes' RSA-2048 key pairs, kept outside the checkout (TESSERA_TEST_KEY_CACHE, default
// ~/.cache/tessera-test-keys/) as rsa-2048-<n>.pem: the n-th key a test process asks for is the n-th
// file (key-pairs.ts). Generating one costs ~170 ms of CPU, so a machine's first run would spend half a
// minute of its tests making them; `.ci/run` fills the cache while npm installs instead:
//   node packages/server/test/support/key-cache.mjs <count>
// fills files 0 … count-1 that are missing, two at a time. The keys are the tests' only.
import { generateKeyPair } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);
export const KEY_CACHE = process.env.TESSERA_TEST_KEY_CACHE ?? join(homedir(), '.cache', 'tessera-test-keys');

const fileOf = (n) => join(KEY_CACHE, `rsa-2048-${n}.pem`);

/** The PEM (PKCS #8) of the n-th key, or null when it is not in the cache yet. */
export function cachedKey(n) {
  try {
    return readFileSync(fileOf(n), 'utf8');
  } catch {
    return null;
  }
}

/** Generates a key pair and keeps it as the n-th (when the cache can be written): its private key. */
export async function generateKey(n) {
  const pair = await generate('rsa', { modulusLength: 2048 });
  const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' });
  try {
    mkdirSync(KEY_CACHE, { recursive: true, mode: 0o700 });
    // Whole or not at all: a run reading it at the same moment never sees half a key.
    const partial = `${fileOf(n)}.${process.pid}.tmp`;
    writeFileSync(partial, pem, { mode: 0o600 });
    renameSync(partial, fileOf(n));
  } catch {
    // Not kept (a read-only home, say): the next run generates it again.
  }
  return pair.privateKey;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = Number(process.argv[2]);
  if (!Number.isInteger(count) || count < 1) {
    process.stderr.write('usage: node key-cache.mjs <count>\n');
    process.exit(2);
  }
  const missing = [];
  for (let n = 0; n < count; n++) if (cachedKey(n) === null) missing.push(n);
  // Two at a time: generateKeyPair runs on libuv's pool, and the machine has other work (npm's install).
  const next = async () => {
    for (let n = missing.shift(); n !== undefined; n = missing.shift()) await generateKey(n);
  };
  await Promise.all([next(), next()]);
}
