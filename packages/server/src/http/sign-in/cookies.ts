import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/config.js';
import { orgPathPrefix, pathSlugOf } from '../org-path.js';

/**
 * The hosted pages' cookies: signed (@fastify/cookie, HMAC-SHA256 under a key derived from
 * TESSERA_SECRET), HttpOnly, SameSite=Lax, host-only (each org host has its own), and Secure
 * with a `__Host-`/`__Secure-` name on https so a sibling host cannot plant them.
 *
 * With path issuers every org shares the base host, so an org's cookies are scoped to its path
 * (`Path=/o/<slug>/`, or a page below it) and named per org (`tessera_session.<slug>`): a browser
 * never sends one org's cookies to another's pages, and an org reads only its own names even
 * where a path-wide cookie of the console (`Path=/`) comes along. A cookie with a path cannot be
 * `__Host-`, so these are `__Secure-` on https (docs/path-issuers.md says what that changes).
 * The properties below are the cookies' names before that: pass them to `set`, `read`, `clear`.
 */
export class PageCookies {
  /** The browser session (login cookie). */
  readonly session = 'tessera_session';
  /** The random value CSRF tokens are bound to (double-submit). */
  readonly csrf = 'tessera_csrf';
  /** Access to the profile page after a profile key was redeemed; sent to /profile only. */
  readonly profile = 'tessera_profile';
  /** A correct password waiting for its second factor (or enrolment); sent to /login… only. */
  readonly secondFactor = 'tessera_second_factor';
  /**
   * The device cookie of a browser that has signed in here before (domain/sign-in/device-cookies.ts):
   * it carries its own HMAC, so it is set unsigned and read with `readDevice`.
   */
  readonly device = 'tessera_device';
  /**
   * Binds a federated sign-in to the browser that started it (federation-binding.ts); sent to
   * /sso… only.
   */
  readonly federation = 'tessera_federation';
  /** The language picked with the pages' switcher (page-texts.ts): a supported tag, nothing else. */
  readonly locale = 'tessera_locale';
  readonly #secure: boolean;
  /** The cookies set for the whole host (`Path=/`), `__Host-` on https; the others are `__Secure-`. */
  readonly #hostWide = new Set([this.session, this.csrf, this.device, this.locale]);

  constructor(config: Config) {
    this.#secure = config.scheme === 'https';
  }

  /** The name a cookie has on the wire for this request's org. */
  nameFor(request: FastifyRequest, name: string): string {
    const slug = pathSlugOf(request);
    if (!this.#secure) return slug === null ? name : `${name}.${slug}`;
    if (slug !== null) return `__Secure-${name}.${slug}`;
    return `${this.#hostWide.has(name) ? '__Host-' : '__Secure-'}${name}`;
  }

  /** The path a cookie is set for: `path` below this request's org's `/o/<slug>` with path issuers. */
  #pathFor(request: FastifyRequest, path: string): string {
    const prefix = orgPathPrefix(request);
    return prefix === '' ? path : `${prefix}${path}`;
  }

  set(
    reply: FastifyReply,
    name: string,
    value: string,
    options: { maxAgeMs?: number; path?: string; signed?: boolean } = {},
  ) {
    reply.setCookie(this.nameFor(reply.request, name), value, {
      signed: options.signed ?? true,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      path: this.#pathFor(reply.request, options.path ?? '/'),
      ...(options.maxAgeMs === undefined ? {} : { maxAge: Math.floor(options.maxAgeMs / 1000) }),
    });
  }

  clear(reply: FastifyReply, name: string, path = '/') {
    reply.clearCookie(this.nameFor(reply.request, name), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      path: this.#pathFor(reply.request, path),
    });
  }

  /** The value of a cookie whose signature checks out, else null. */
  read(request: FastifyRequest, name: string): string | null {
    const raw = request.cookies[this.nameFor(request, name)];
    if (raw === undefined) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : null;
  }

  /** The device cookie as sent (its signature is the domain's to check), else null. */
  readDevice(request: FastifyRequest): string | null {
    return request.cookies[this.nameFor(request, this.device)] ?? null;
  }
}
