import type { FastifyBaseLogger } from 'fastify';
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
        req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  );
}
