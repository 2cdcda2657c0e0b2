import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { orgOf } from '../org-routing.js';
import type { ConsoleFile, ConsoleFiles } from './console-files.js';

/**
 * What the console's pages may do: run its own scripts and styles, call this origin (the
 * management API and the console issuer's token endpoint), and nothing else; never be framed.
 */
const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tessera console</title></head>
<body><main><h1>The console is not built</h1><p>Run <code>npm run build</code> (npm ci runs it), then start Tessera again.</p></main></body></html>`;

function send(reply: FastifyReply, file: ConsoleFile) {
  return reply
    .headers({
      'content-type': file.type,
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'content-security-policy': CONSOLE_CSP,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    })
    .send(file.body);
}

/** A path that names a file (its last segment has an extension), not a page of the app. */
const looksLikeFile = (path: string) => /\.[A-Za-z0-9]+$/.test(path.split('/').pop() ?? '');

/**
 * The web console on the console host: `/` sends people to `/console/`, and every page under
 * `/console/` is the single-page app (its router reads the path); its assets are files of the
 * build. On an org host none of these exist (404, as before).
 */
export function consoleRoutes(app: FastifyInstance, deps: Deps, files: ConsoleFiles | null) {
  const onConsoleHost = async (request: Parameters<typeof orgOf>[1]) =>
    (await orgOf(deps, request)).isConsole;

  app.get('/', async (request, reply) => {
    if (!(await onConsoleHost(request))) return reply.callNotFound();
    return reply.redirect('/console/', 302);
  });

  app.get('/console', async (request, reply) => {
    if (!(await onConsoleHost(request))) return reply.callNotFound();
    return reply.redirect('/console/', 301);
  });

  app.get<{ Params: { '*': string } }>('/console/*', async (request, reply) => {
    if (!(await onConsoleHost(request))) return reply.callNotFound();
    if (!files) {
      return reply
        .code(503)
        .headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .send(NOT_BUILT);
    }
    const path = request.params['*'];
    const file = files.file(path);
    if (file && path !== 'index.html') return send(reply, file);
    if (looksLikeFile(path)) return reply.callNotFound();
    return send(reply, files.index);
  });
}
