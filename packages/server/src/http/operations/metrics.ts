import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../observability/metrics.js';
import { type FormParams, isForm } from '../form.js';

/**
 * GET /metrics in Prometheus text, and what feeds it from the transport: every response's duration
 * under its route template (`unmatched` for a 404 of no route, so a scan cannot grow the label set)
 * and every token response by its grant type.
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (route === '/oauth/token' && reply.statusCode === 200 && isForm(request.body)) {
      metrics.tokenIssued((request.body as FormParams).get('grant_type')?.[0] ?? 'unknown');
    }
  });
  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(text);
  });
}
