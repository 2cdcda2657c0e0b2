import type { FastifyReply } from 'fastify';
import type { Config } from '../config/config.js';

/** One year, this host and every org host under it (`${slug}.${issuerDomain}`). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers every response carries, whatever answered it (a route, an error, the 404):
 * `X-Content-Type-Options: nosniff` always, and while TESSERA_URL is https,
 * `Strict-Transport-Security`, so browsers never reach an issuer over plain http again.
 */
export function securityHeaders(config: Config): (reply: FastifyReply) => void {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (config.scheme === 'https') headers['strict-transport-security'] = HSTS;
  return (reply) => {
    reply.headers(headers);
  };
}
