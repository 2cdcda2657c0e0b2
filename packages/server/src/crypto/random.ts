import { createHash, randomBytes, randomFillSync, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes for ids, drawn from a pool the CSPRNG refills 4 KiB at a time (as Node's own
 * randomUUID does): one system call per ~200 ids instead of one per id, which is most of an id's
 * cost where system calls are dear. Ids are names, not secrets: secrets use newSecret.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function idBytes(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += n;
  return pool.subarray(poolOffset - n, poolOffset);
}

/** `n` random base36 characters. */
function base36(n: number): string {
  let out = '';
  for (const b of idBytes(n)) out += ALPHABET[b % 36];
  return out;
}

/** A resource id: prefix + 20 random base36 characters (~103 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${base36(20)}`;
}

/**
 * A resource id of the same shape whose first 9 characters are the time in milliseconds (base36),
 * so ids made later sort later: rows written together then share index pages. For the outbox and
 * its attempt log, where random keys dirtied a page of every index per row and made each
 * transaction's commit several times dearer. 11 random characters (~56 bits) follow.
 */
export function newSortableId(prefix: string, nowMs: number = Date.now()): string {
  return `${prefix}_${nowMs.toString(36).padStart(9, '0')}${base36(11)}`;
}

/**
 * A sortable event id: `evt_` + 12 hex digits of milliseconds + a per-process counter + randomness,
 * so ids of one millisecond still sort in the order they were made.
 */
let lastMs = 0;
let counter = 0;
export function newEventId(nowMs: number = Date.now()): string {
  if (nowMs === lastMs) counter++;
  else {
    lastMs = nowMs;
    counter = 0;
  }
  const time = nowMs.toString(16).padStart(12, '0');
  const seq = counter.toString(16).padStart(6, '0');
  return `evt_${time}${seq}${idBytes(6).toString('hex')}`;
}

/** A high-entropy secret: 32 random bytes, base64url, behind a readable prefix. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** `length` characters drawn uniformly (no modulo bias) from `alphabet` by the CSPRNG: a code a person types. */
export function randomCode(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

/** Constant-time comparison of a presented secret with a stored SHA-256 hash. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(presented), 'utf8');
  const b = Buffer.from(storedHash, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
