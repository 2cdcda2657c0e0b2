import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.js';

/**
 * The hosted pages' cookies: signed (@fastify/cookie, HMAC-SHA256 under a key derived from
 * TESSERA_SECRET), HttpOnly, SameSite=Lax, host-only (each org host has its own), and Secure
 * with a `__Host-`/`__Secure-` name on https so a sibling host cannot plant them.
 */
export class PageCookies {
  /** The browser session (login cookie). */
  readonly session: string;
  /** The random value CSRF tokens are bound to (double-submit). */
  readonly csrf: string;
  /** Access to the profile page after a profile key was redeemed; sent to /profile only. */
  readonly profile: string;
  /** A correct password waiting for its second factor (or enrolment); sent to /login… only. */
  readonly secondFactor: string;
  readonly #secure: boolean;

  constructor(config: Config) {
    this.#secure = config.scheme === 'https';
    const root = this.#secure ? '__Host-' : '';
    this.session = `${root}tessera_session`;
    this.csrf = `${root}tessera_csrf`;
    this.profile = `${this.#secure ? '__Secure-' : ''}tessera_profile`;
    this.secondFactor = `${this.#secure ? '__Secure-' : ''}tessera_second_factor`;
  }

  set(reply: FastifyReply, name: string, value: string, options: { maxAgeMs?: number; path?: string } = {}) {
    reply.setCookie(name, value, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      path: options.path ?? '/',
      ...(options.maxAgeMs === undefined ? {} : { maxAge: Math.floor(options.maxAgeMs / 1000) }),
    });
  }

  clear(reply: FastifyReply, name: string, path = '/') {
    reply.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: this.#secure, path });
  }

  /** The value of a cookie whose signature checks out, else null. */
  read(request: FastifyRequest, name: string): string | null {
    const raw = request.cookies[name];
    if (raw === undefined) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : null;
  }
}
