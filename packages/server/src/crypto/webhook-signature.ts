import { createHmac } from 'node:crypto';

/** Webhook signing secrets: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_';

/** The HMAC key of a secret: the base64-decoded part after `whsec_`. */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('webhook secret is empty');
  return key;
}

/**
 * The three Standard Webhooks headers for one attempt: `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`. The body must be sent byte for byte as signed.
 */
export function signedHeaders(
  key: Buffer,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${mac}`,
  };
}
