import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { readiness } from '../../domain/readiness.js';

/**
 * GET /healthz: liveness, 200 while the process serves (it does not touch the database, so an
 * orchestrator does not restart a node for the database's outage). GET /readyz: 200 only while
 * the database answers and is migrated, else 503, so a load balancer sends traffic elsewhere.
 */
export function healthRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', database: deps.dialect };
  });
  app.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const state = await readiness(deps);
    return reply.code(state === 'ready' ? 200 : 503).send({ status: state, database: deps.dialect });
  });
}
