import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Deps } from '../../domain/context.js';

/** GET /healthz: 200 when the database answers, 503 when it does not. */
export function healthRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/healthz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await sql`select 1`.execute(deps.db);
      return { status: 'ok', database: deps.dialect };
    } catch (error) {
      request.log.error({ err: { message: (error as Error).message } }, 'health check failed');
      return reply.code(503).send({ status: 'unavailable', database: deps.dialect });
    }
  });
}
