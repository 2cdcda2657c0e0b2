import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { listDeliveries, retryDelivery } from '../../domain/webhooks/delivery-log.js';
import { ownerCaller } from './owner-caller.js';

type Params = { Params: { org: string; id: string } };

/** A webhook's delivery log and redelivery of one event (owners only; members 403). */
export function webhookDeliveryRoutes(app: FastifyInstance, deps: Deps) {
  app.get<Params>('/organizations/:org/webhooks/:id/deliveries', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    reply.header('cache-control', 'no-store');
    return listDeliveries(deps, org, request.params.id);
  });

  app.post<{ Params: { org: string; id: string; deliveryId: string } }>(
    '/organizations/:org/webhooks/:id/deliveries/:deliveryId/retry',
    async (request, reply) => {
      const { org } = await ownerCaller(deps, request, 'forbidden', 'org:write');
      const delivery = await retryDelivery(deps, org, request.params.id, request.params.deliveryId);
      return reply.code(202).header('cache-control', 'no-store').send(delivery);
    },
  );
}
