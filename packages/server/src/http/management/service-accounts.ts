import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import {
  createServiceAccount,
  deleteServiceAccount,
  getServiceAccount,
  listServiceAccounts,
  rotateServiceAccountSecret,
  type ServiceAccount,
} from '../../domain/directory/index.js';
import { managementInput } from './api-input.js';
import { created, endpoint, noContent, ok } from './endpoint.js';
import {
  apiError,
  createResponses,
  forbidden,
  listResponses,
  MANAGEMENT,
  ORG,
  unauthorized,
} from './responses.js';
import {
  CreatedServiceAccount,
  CreateServiceAccountBody,
  ServiceAccountList,
  ServiceAccount as ServiceAccountSchema,
  ServiceAccountSecret,
  ServiceAccountsQuery,
  type ServiceAccount as ServiceAccountView,
} from './service-accounts-schemas.js';

const view = (deps: Deps, a: ServiceAccount): z.output<typeof ServiceAccountView> => ({
  client_id: a.id,
  name: a.name,
  scopes: a.scopes,
  ...(a.jwks === undefined ? {} : { jwks: a.jwks }),
  token_endpoint: `${deps.config.baseUrl}/oauth/token`,
  secret_issued_at: new Date(a.secretIssuedAt).toISOString(),
  created_at: new Date(a.createdAt).toISOString(),
});

const ACCOUNT = { ...ORG, id: 'the service account’s client id (`cli_…`)' } as const;
const noAccount = apiError('`not_found`: no such org, or no such service account bound to it');
// People only: a service account never manages service accounts (403, whatever its scopes).
const common = { ...MANAGEMENT, people: true, who: 'owners' } as const;

/**
 * An org's service accounts (DESIGN §16), managed by its owners only — people, never a service
 * account (403), members 403: list, create (the secret is shown there once), read, delete, and a
 * new secret.
 */
export const SERVICE_ACCOUNT_ENDPOINTS = [
  endpoint(
    {
      ...common,
      method: 'get',
      path: '/organizations/:org/service-accounts',
      operationId: 'listServiceAccounts',
      summary: 'List the org’s service accounts (never their secrets)',
      scope: 'org:read',
      params: ORG,
      query: ServiceAccountsQuery,
      responses: listResponses(ServiceAccountList),
    },
    async ({ deps, caller, query, page }) => {
      const list = await listServiceAccounts(deps, caller.org, { page: query.page, perPage: query.per_page });
      return page(
        list.entries.map((a) => view(deps, a)),
        list.total,
      );
    },
  ),
  endpoint(
    {
      ...common,
      method: 'post',
      path: '/organizations/:org/service-accounts',
      operationId: 'createServiceAccount',
      summary: 'Create a service account bound to the org',
      description:
        'A confidential client of the console org with `client_credentials` only. Its ' +
        '`client_secret` is in this response only (`Cache-Control: no-store`); it is stored as a hash. ' +
        'Its tokens (the `serviceAccount` security scheme) carry the chosen scopes and are accepted ' +
        'for this org only; what it does is audited with the actor `{kind: "client", id}`.',
      scope: 'org:write',
      params: ORG,
      body: { contentType: 'application/json', schema: CreateServiceAccountBody, errors: 'invalid_request' },
      responses: createResponses(CreatedServiceAccount),
    },
    async ({ deps, caller, body }) => {
      const input = {
        name: body.name,
        scopes: body.scopes,
        ...(body.jwks === undefined ? {} : { jwks: body.jwks }),
      };
      const { account, secret } = await managementInput(
        createServiceAccount(deps, caller.org, input, caller.actor),
      );
      return created({ ...view(deps, account), client_secret: secret });
    },
  ),
  endpoint(
    {
      ...common,
      method: 'get',
      path: '/organizations/:org/service-accounts/:id',
      operationId: 'getServiceAccount',
      summary: 'One of the org’s service accounts',
      scope: 'org:read',
      params: ACCOUNT,
      responses: {
        200: { description: 'the service account', schema: ServiceAccountSchema },
        401: unauthorized,
        403: forbidden,
        404: noAccount,
      },
    },
    async ({ deps, caller, params }) => {
      const account = await getServiceAccount(deps, caller.org, params.id);
      return ok(view(deps, account));
    },
  ),
  endpoint(
    {
      ...common,
      method: 'delete',
      path: '/organizations/:org/service-accounts/:id',
      operationId: 'deleteServiceAccount',
      summary: 'Delete a service account; its tokens stop working at once',
      scope: 'org:write',
      params: ACCOUNT,
      responses: {
        204: { description: 'deleted; no body' },
        401: unauthorized,
        403: forbidden,
        404: noAccount,
      },
    },
    async ({ deps, caller, params }) => {
      await deleteServiceAccount(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
  endpoint(
    {
      ...common,
      method: 'post',
      path: '/organizations/:org/service-accounts/:id/secret',
      operationId: 'rotateServiceAccountSecret',
      summary: 'Give a service account a new secret; the old one stops working at once',
      description: 'Tokens issued before keep working until they expire.',
      scope: 'org:write',
      params: ACCOUNT,
      responses: {
        200: { description: 'the new secret, in this response only', schema: ServiceAccountSecret },
        401: unauthorized,
        403: forbidden,
        404: noAccount,
      },
    },
    async ({ deps, caller, params }) => {
      const secret = await rotateServiceAccountSecret(deps, caller.org, params.id, caller.actor);
      return ok({ client_secret: secret });
    },
  ),
];
