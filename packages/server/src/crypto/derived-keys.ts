import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Keys for the hosted pages, derived from TESSERA_SECRET with HKDF like the at-rest key (each
 * under its own label, so one never reveals another). Held in memory only; never logged.
 */
export interface PageKeys {
  /** Signs cookies (@fastify/cookie, HMAC-SHA256). */
  readonly cookie: Buffer;
  /** Keys the HMAC of CSRF tokens. */
  readonly csrf: Buffer;
  /** Keys the HMAC of device cookies (a browser that has signed in before; see the login throttle). */
  readonly device: Buffer;
}

const derive = (secret: string, label: string) =>
  Buffer.from(hkdfSync('sha256', secret, 'tessera', `tessera ${label} v1`, 32));

export function derivePageKeys(masterSecret: string): PageKeys {
  return Object.freeze({
    cookie: derive(masterSecret, 'cookie signing'),
    csrf: derive(masterSecret, 'csrf'),
    device: derive(masterSecret, 'device cookie'),
  });
}

/** HMAC-SHA256 of the parts (joined unambiguously), base64url. */
export function hmac(key: Buffer, parts: readonly string[]): string {
  return createHmac('sha256', key).update(JSON.stringify(parts)).digest('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
