import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../observability/metrics.js';
import { type FormParams, isForm } from '../form.js';
import { operation } from '../served-operation.js';

/**
 * What feeds the metrics from the transport, on every route of `app`: every response's duration
 * under its route template (`unmatched` for a 404 of no route, so a scan cannot grow the label set)
 * and every token response by its grant type.
 */
export function countRequests(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (route === '/oauth/token' && reply.statusCode === 200 && isForm(request.body)) {
      metrics.tokenIssued((request.body as FormParams).get('grant_type')?.[0] ?? 'unknown');
    }
  });
}

/** GET /metrics in Prometheus text: what countRequests and the rest of the process recorded. */
export const prometheusMetrics = operation(
  {
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary:
      'Prometheus metrics: request durations by route and status, tokens issued by grant, webhook deliveries by outcome, outbox depth, database pool use',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: {
      200: { description: 'Prometheus text exposition format', contentType: 'text/plain; version=0.0.4' },
    },
  },
  ({ metrics }) => ({
    handler: async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply
        .header('content-type', metrics.registry.contentType)
        .header('cache-control', 'no-store')
        .send(text);
    },
  }),
);
