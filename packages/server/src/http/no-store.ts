import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A route's onSend hook: every answer of an OAuth endpoint that carries tokens, secrets or a
 * person's claims — errors included, also those refused at the edge before the handler runs — is
 * `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1, RFC 7591 §3.2.1).
 */
export async function noStore(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}
