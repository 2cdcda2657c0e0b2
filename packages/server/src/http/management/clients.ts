import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  rotateClientSecret,
  updateClient,
} from '../../domain/directory/clients.js';
import { failApi, ServiceError } from '../../domain/errors.js';
import type { Client } from '../../domain/types.js';
import { jsonBody } from './api-input.js';
import {
  ClientsQuery,
  type Client as ClientView,
  CreateClientBody,
  UpdateClientBody,
} from './clients-schemas.js';
import { ownerCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';

const view = (c: Client): z.output<typeof ClientView> => ({
  client_id: c.id,
  client_name: c.name,
  type: c.kind,
  redirect_uris: c.redirectUris,
  post_logout_redirect_uris: c.postLogoutRedirectUris,
  grant_types: c.grantTypes,
  first_party: c.firstParty,
  created_at: new Date(c.createdAt).toISOString(),
});

/**
 * A rule the domain enforces beyond the body's own schema (grant types against the redirect URIs
 * the client ends up with) is refused as the management API refuses any bad value.
 */
async function managementInput<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'invalid_body') failApi('invalid_request', err.detail);
    throw err;
  }
}

type OrgParams = { Params: { org: string } };
type ClientParams = { Params: { org: string; id: string } };

/**
 * An org's OAuth clients (owners only; members 403): list, create (a confidential client's secret
 * is shown there once), read, update, delete (ending its sessions), and a new secret.
 */
export function clientRoutes(app: FastifyInstance, deps: Deps) {
  app.get<OrgParams>('/organizations/:org/clients', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    const list = pagedQuery(deps, ClientsQuery, request);
    const page = await listClients(deps, org, { page: list.query.page, perPage: list.query.per_page });
    return sendPage(deps, request, reply, { ...list, entries: page.entries.map(view), total: page.total });
  });

  app.post<OrgParams>('/organizations/:org/clients', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const body = jsonBody('invalid_request', CreateClientBody, request.body);
    const input = {
      name: body.client_name,
      kind: body.type,
      redirectUris: body.redirect_uris ?? [],
      postLogoutRedirectUris: body.post_logout_redirect_uris ?? [],
      ...(body.grant_types ? { grantTypes: body.grant_types } : {}),
      ...(body.first_party === undefined ? {} : { firstParty: body.first_party }),
    };
    const { client, secret } = await managementInput(createClient(deps, org, input, actor));
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(secret === null ? view(client) : { ...view(client), client_secret: secret });
  });

  app.get<ClientParams>('/organizations/:org/clients/:id', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'forbidden', 'org:read');
    const client = await getClient(deps, org, request.params.id);
    return reply.header('cache-control', 'no-store').send(view(client));
  });

  app.patch<ClientParams>('/organizations/:org/clients/:id', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const body = jsonBody('invalid_request', UpdateClientBody, request.body);
    const changes = {
      ...(body.client_name === undefined ? {} : { name: body.client_name }),
      ...(body.redirect_uris ? { redirectUris: body.redirect_uris } : {}),
      ...(body.post_logout_redirect_uris ? { postLogoutRedirectUris: body.post_logout_redirect_uris } : {}),
      ...(body.grant_types ? { grantTypes: body.grant_types } : {}),
    };
    const client = await managementInput(updateClient(deps, org, request.params.id, changes, actor));
    return reply.header('cache-control', 'no-store').send(view(client));
  });

  app.delete<ClientParams>('/organizations/:org/clients/:id', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    await deleteClient(deps, org, request.params.id, actor);
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  app.post<ClientParams>('/organizations/:org/clients/:id/secret', async (request, reply) => {
    const { org, actor } = await ownerCaller(deps, request, 'forbidden', 'org:write');
    const secret = await rotateClientSecret(deps, org, request.params.id, actor);
    return reply.header('cache-control', 'no-store').send({ client_secret: secret });
  });
}
