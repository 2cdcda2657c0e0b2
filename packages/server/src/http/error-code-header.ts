import type { FastifyReply } from 'fastify';
import type { ErrorSituation } from '../domain/errors.js';

/**
 * The answer's header naming its situation's stable code (domain/error-codes.ts), beside the body the
 * spec fixes, which it never changes; http/cors.ts exposes it to the pages that may read the answer.
 */
export const ERROR_CODE_HEADER = 'tessera-error-code';

/** Names `situation` on the answer being sent. */
export function nameSituation(reply: FastifyReply, situation: ErrorSituation): FastifyReply {
  return reply.header(ERROR_CODE_HEADER, situation);
}
