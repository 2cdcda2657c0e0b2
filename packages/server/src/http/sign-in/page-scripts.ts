import type { FastifyInstance } from 'fastify';

/** A script of the hosted pages (their CSP runs `script-src 'self'` only): where it is served, what it is. */
export interface PageScript {
  path: string;
  source: string;
}

/** GET of a page script: static, the same on every host, cacheable for a day. */
export function pageScriptRoute(app: FastifyInstance, script: PageScript) {
  app.get(script.path, async (_request, reply) =>
    reply
      .headers({
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=86400',
        'cross-origin-resource-policy': 'same-origin',
      })
      .send(script.source),
  );
}
