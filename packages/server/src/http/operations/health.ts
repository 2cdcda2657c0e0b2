import { readiness as readinessOf } from '../../domain/readiness.js';
import { Health, Readiness } from '../openapi/described-schemas.js';
import { operation } from '../served-operation.js';

/**
 * GET /healthz: liveness, 200 while the process serves (it does not touch the database, so an
 * orchestrator does not restart a node for the database's outage).
 */
export const health = operation(
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness: the process serves (the database is not consulted)',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: { 200: { description: 'the process serves', schema: Health } },
  },
  ({ deps }) => ({
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok', database: deps.dialect };
    },
  }),
);

/**
 * GET /readyz: 200 only while the database answers and is migrated, else 503, so a load balancer
 * sends traffic elsewhere.
 */
export const readiness = operation(
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    summary: 'Readiness: the database answers and holds every migration',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: {
      200: { description: 'ready', schema: Readiness },
      503: { description: 'the database does not answer, or is not migrated', schema: Readiness },
    },
  },
  ({ deps }) => ({
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const state = await readinessOf(deps);
      return reply.code(state === 'ready' ? 200 : 503).send({ status: state, database: deps.dialect });
    },
  }),
);
