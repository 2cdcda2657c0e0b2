import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { listKeys, rotateKeys } from '../../domain/keys/keys.js';
import { KeysQuery } from './keys-schemas.js';
import { ownerCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';

type OrgParams = { Params: { org: string } };

/** An org's signing keys (owners only; members 403): the published keys, and rotation. */
export function keyRoutes(app: FastifyInstance, deps: Deps) {
  app.get<OrgParams>('/organizations/:org/keys', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    const list = pagedQuery(deps, KeysQuery, request);
    const page = await listKeys(deps, org, { page: list.query.page, perPage: list.query.per_page });
    const entries = page.entries.map((k) => ({
      kid: k.kid,
      state: k.state,
      created_at: new Date(k.createdAt).toISOString(),
    }));
    return sendPage(deps, request, reply, { ...list, entries, total: page.total });
  });

  app.post<OrgParams>('/organizations/:org/keys/rotate', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const kid = await rotateKeys(deps, org, actor);
    return reply.header('cache-control', 'no-store').send({ kid });
  });
}
