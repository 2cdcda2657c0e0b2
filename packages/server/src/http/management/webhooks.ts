import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  updateWebhook,
  type Webhook,
} from '../../domain/webhooks/webhooks.js';
import { jsonBody } from './api-input.js';
import { CreateWebhookBody, type Webhook as WebhookView } from './api-schemas.js';
import { ownerCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';
import { UpdateWebhookBody, WebhooksQuery } from './webhooks-schemas.js';

const view = (w: Webhook): z.output<typeof WebhookView> => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  created_at: new Date(w.createdAt).toISOString(),
});

type OrgParams = { Params: { org: string } };

/**
 * An org's webhooks (owners only; members 403): create (the secret is shown here once), list,
 * update (also to turn a disabled one back on), delete.
 */
export function webhookRoutes(app: FastifyInstance, deps: Deps) {
  app.post<OrgParams>('/organizations/:org/webhooks', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const input = jsonBody('invalid_request', CreateWebhookBody, request.body);
    const { webhook, secret } = await createWebhook(deps, org, input, actor);
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send({ ...view(webhook), secret });
  });

  app.get<OrgParams>('/organizations/:org/webhooks', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    const list = pagedQuery(deps, WebhooksQuery, request);
    const page = await listWebhooks(deps, org, { page: list.query.page, perPage: list.query.per_page });
    return sendPage(deps, request, reply, { ...list, entries: page.entries.map(view), total: page.total });
  });

  app.patch<{ Params: { org: string; id: string } }>(
    '/organizations/:org/webhooks/:id',
    async (request, reply) => {
      const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
      const body = jsonBody('invalid_request', UpdateWebhookBody, request.body);
      const changes = {
        ...(body.url === undefined ? {} : { url: body.url }),
        ...(body.events === undefined ? {} : { events: body.events }),
        ...(body.active === undefined ? {} : { active: body.active }),
      };
      const webhook = await updateWebhook(deps, org, request.params.id, changes, actor);
      return reply.header('cache-control', 'no-store').send(view(webhook));
    },
  );

  app.delete<{ Params: { org: string; id: string } }>(
    '/organizations/:org/webhooks/:id',
    async (request, reply) => {
      const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
      await deleteWebhook(deps, org, request.params.id, actor);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );
}
