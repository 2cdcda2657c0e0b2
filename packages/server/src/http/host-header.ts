import type { FastifyRequest } from 'fastify';
import { inputError } from './errors.js';

/**
 * An onRequest hook: a request with more than one `Host` header is refused (RFC 9112 §3.2: a
 * server MUST answer 400). Node keeps the first one silently, so a proxy that routed by the
 * second would disagree with Tessera about which org a request is for.
 */
export async function refuseRepeatedHost(request: FastifyRequest): Promise<void> {
  const raw = request.raw.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'host') hosts++;
  if (hosts > 1)
    throw inputError(
      request,
      'header',
      'request.host.duplicate',
      'a request must have exactly one Host header',
    );
}
