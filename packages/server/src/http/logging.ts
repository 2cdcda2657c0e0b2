import type { FastifyServerOptions } from 'fastify';
import { REDACT } from '../observability/logger.js';

/**
 * Request logs carry method, path and status only: the query string can hold a code or a `host`
 * override, and headers hold bearer tokens, so neither is logged. Bodies are never logged.
 */
export function loggerOptions(
  level: string,
  stream?: { write(chunk: string): void },
): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: REDACT,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}
