// A session kept in the browser, in a cookie sealed with AES-256-GCM: the browser holds it but can neither
// read nor change it, and no server-side store is needed. The cookie is HttpOnly (no script reads it),
// SameSite=Lax (not sent with another site's POST) and Secure on https.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** `secret`: at least 32 characters; without one, a random key (every restart signs everyone out). */
export function sealedCookies(secret, { secure }) {
  if (secret !== undefined && secret.length < 32)
    throw new Error('SESSION_SECRET must be at least 32 characters');
  const key = secret === undefined ? randomBytes(32) : createHash('sha256').update(secret).digest();

  const seal = (name, value) => {
    const iv = randomBytes(12);
    // The cookie's name is bound in: a sealed value moved to another cookie does not open.
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(name));
    const body = Buffer.concat([cipher.update(JSON.stringify(value)), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  };

  const open = (name, sealed) => {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12)).setAAD(Buffer.from(name));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString());
    } catch {
      return undefined; // forged, damaged, or sealed with another key: no session
    }
  };

  return {
    /** The value of cookie `name`, or undefined when it is absent, forged or past `expires` (ms). */
    get(req, name) {
      const header = req.headers.cookie ?? '';
      for (const part of header.split(';')) {
        const [key, ...rest] = part.trim().split('=');
        if (key !== name) continue;
        const value = open(name, rest.join('='));
        return value && typeof value.expires === 'number' && value.expires > Date.now() ? value : undefined;
      }
      return undefined;
    },
    /** Sets cookie `name` to `value` for `maxAgeMs`. */
    set(res, name, value, maxAgeMs) {
      const sealed = seal(name, { ...value, expires: Date.now() + maxAgeMs });
      res.cookie(name, sealed, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: maxAgeMs });
    },
    clear(res, name) {
      res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
    },
  };
}
