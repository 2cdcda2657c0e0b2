import type { FastifyReply, FastifyRequest } from 'fastify';
import { mintCsrfToken, newCsrfCookieValue, verifyCsrfToken } from '../../domain/sign-in/index.js';
import type { PageCookies } from './cookies.js';

/**
 * CSRF protection for every form: the double-submit cookie and the token in the form, whose rule
 * (an HMAC over the form, the cookie value and the binding) lives in domain/sign-in/csrf-tokens.ts.
 * Here the cookie is read, or set while the page is rendered when the browser has none.
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
      value = newCsrfCookieValue();
      this.#issued.set(request, value);
      this.cookies.set(reply, this.cookies.csrf, value);
    }
    return mintCsrfToken(this.key, form, value, binding);
  }

  /** True when the submitted token was made for this form, this cookie and this binding. */
  check(request: FastifyRequest, form: string, binding: readonly string[], submitted: string): boolean {
    const value = this.cookies.read(request, this.cookies.csrf);
    if (!value) return false;
    return verifyCsrfToken(this.key, form, value, binding, submitted);
  }
}
