import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from '../observability/logger.js';

/**
 * The request logs: the process's own logger (one pino, one redaction list, one destination), with
 * serializers so a request line carries method, path and status only: the query string can hold a
 * code or a `host` override, and headers hold bearer tokens, so neither is logged. Bodies never are.
 */
export function requestLogger(log: Logger): FastifyBaseLogger {
  return log.child(
    {},
    {
      serializers: {
        // The path as sent: with path issuers routing sees it without its `/o/<slug>` (org-path.ts).
        req: (req: { method: string; url: string; originalUrl?: string }) => ({
          method: req.method,
          path: (req.originalUrl ?? req.url).split('?')[0],
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  );
}

/**
 * One line per request, once it is answered: method, path, status and `responseTime` (ms), at info
 * (Fastify's default is two: `incoming request`, then `request completed`). Fastify's own line for
 * an unknown route is dropped too: it repeats the URL with its query string, and the request's line
 * already says 404. Errors are logged where they are rendered (errors.ts).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: { message: error.message } }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
