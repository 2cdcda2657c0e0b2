import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual, hmac } from '../../crypto/derived-keys.js';
import type { PageCookies } from './cookies.js';

/**
 * CSRF protection for every form: a double-submit cookie holding a random value, and in the form
 * an HMAC (keyed from TESSERA_SECRET) of that value, the form's name and what the form acts on
 * (the authorization request, the browser session, the profile's user). A token cannot be forged
 * without the key, nor replayed on another form, another request or another session.
 */
export class Csrf {
  // The cookie value chosen while rendering, before the browser has it.
  readonly #issued = new WeakMap<FastifyRequest, string>();

  constructor(
    private readonly key: Buffer,
    private readonly cookies: PageCookies,
  ) {}

  /** The token for a form on the page being rendered; sets the cookie when the browser has none. */
  token(request: FastifyRequest, reply: FastifyReply, form: string, binding: readonly string[]): string {
    let value = this.cookies.read(request, this.cookies.csrf) ?? this.#issued.get(request);
    if (!value) {
      value = randomBytes(32).toString('base64url');
      this.#issued.set(request, value);
      this.cookies.set(reply, this.cookies.csrf, value);
    }
    return hmac(this.key, ['csrf', form, value, ...binding]);
  }

  /** True when the submitted token was made for this form, this cookie and this binding. */
  check(request: FastifyRequest, form: string, binding: readonly string[], submitted: string): boolean {
    const value = this.cookies.read(request, this.cookies.csrf);
    if (!value || submitted === '') return false;
    return constantTimeEqual(hmac(this.key, ['csrf', form, value, ...binding]), submitted);
  }
}
