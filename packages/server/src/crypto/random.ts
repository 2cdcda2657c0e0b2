import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A resource id: prefix + 20 random base36 characters (~103 bits). */
export function newId(prefix: string): string {
  const bytes = randomBytes(20);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${prefix}_${out}`;
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
  return `evt_${time}${seq}${randomBytes(6).toString('hex')}`;
}

/** A high-entropy secret: 32 random bytes, base64url, behind a readable prefix. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
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
