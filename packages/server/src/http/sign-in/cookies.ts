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
  /**
   * The device cookie of a browser that has signed in here before (domain/sign-in/device-cookies.ts):
   * it carries its own HMAC, so it is set unsigned and read with `readDevice`.
   */
  readonly device: string;
  /**
   * Binds a federated sign-in to the browser that started it (federation-binding.ts); sent to
   * /sso… only.
   */
  readonly federation: string;
  readonly #secure: boolean;

  constructor(config: Config) {
    this.#secure = config.scheme === 'https';
    const root = this.#secure ? '__Host-' : '';
    this.session = `${root}tessera_session`;
    this.csrf = `${root}tessera_csrf`;
    this.profile = `${this.#secure ? '__Secure-' : ''}tessera_profile`;
    this.secondFactor = `${this.#secure ? '__Secure-' : ''}tessera_second_factor`;
    this.device = `${root}tessera_device`;
    this.federation = `${this.#secure ? '__Secure-' : ''}tessera_federation`;
  }

  set(
    reply: FastifyReply,
    name: string,
    value: string,
    options: { maxAgeMs?: number; path?: string; signed?: boolean } = {},
  ) {
    reply.setCookie(name, value, {
      signed: options.signed ?? true,
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

  /** The device cookie as sent (its signature is the domain's to check), else null. */
  readDevice(request: FastifyRequest): string | null {
    return request.cookies[this.device] ?? null;
  }
}
