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
import { isoTime } from '../../domain/iso-time.js';
import { managementInput } from './api-input.js';
import { ownedItems } from './owned-items.js';
import { apiError, listResponses } from './responses.js';
import {
  CreatedServiceAccount,
  CreateServiceAccountBody,
  ServiceAccountList,
  ServiceAccount as ServiceAccountSchema,
  ServiceAccountSecret,
  ServiceAccountsQuery,
  type ServiceAccount as ServiceAccountView,
} from './service-accounts-schemas.js';

const view = (a: ServiceAccount, deps: Deps): z.output<typeof ServiceAccountView> => ({
  client_id: a.id,
  name: a.name,
  scopes: a.scopes,
  ...(a.jwks === undefined ? {} : { jwks: a.jwks }),
  token_endpoint: `${deps.config.baseUrl}/oauth/token`,
  secret_issued_at: isoTime(a.secretIssuedAt),
  created_at: isoTime(a.createdAt),
});

const accounts = ownedItems({
  collection: 'service-accounts',
  noun: 'service account',
  id: 'the service account’s client id (`cli_…`)',
  notFound: apiError('`not_found`: no such org, or no such service account bound to it'),
  // People only: a service account never manages service accounts (403, whatever its scopes).
  people: true,
});

/**
 * An org's service accounts (DESIGN §16), managed by its owners only — people, never a service
 * account (403), members 403: list, create (the secret is shown there once), read, delete, and a
 * new secret.
 */
export const SERVICE_ACCOUNT_ENDPOINTS = [
  accounts.list(
    {
      operationId: 'listServiceAccounts',
      summary: 'List the org’s service accounts (never their secrets)',
      query: ServiceAccountsQuery,
      responses: listResponses(ServiceAccountList),
    },
    listServiceAccounts,
    view,
  ),
  accounts.create(
    {
      operationId: 'createServiceAccount',
      summary: 'Create a service account bound to the org',
      description:
        'A confidential client of the console org with `client_credentials` only. Its ' +
        '`client_secret` is in this response only (`Cache-Control: no-store`); it is stored as a hash. ' +
        'Its tokens (the `serviceAccount` security scheme) carry the chosen scopes and are accepted ' +
        'for this org only; what it does is audited with the actor `{kind: "client", id}`.',
      body: CreateServiceAccountBody,
      schema: CreatedServiceAccount,
    },
    async (deps, caller, body) => {
      const input = {
        name: body.name,
        scopes: body.scopes,
        ...(body.jwks === undefined ? {} : { jwks: body.jwks }),
      };
      const { account, secret } = await managementInput(
        createServiceAccount(deps, caller.org, input, caller.actor),
      );
      return { ...view(account, deps), client_secret: secret };
    },
  ),
  accounts.get(
    {
      operationId: 'getServiceAccount',
      summary: 'One of the org’s service accounts',
      schema: ServiceAccountSchema,
    },
    async (deps, org, id) => view(await getServiceAccount(deps, org, id), deps),
  ),
  accounts.remove(
    {
      operationId: 'deleteServiceAccount',
      summary: 'Delete a service account; its tokens stop working at once',
    },
    deleteServiceAccount,
  ),
  accounts.act(
    {
      operationId: 'rotateServiceAccountSecret',
      summary: 'Give a service account a new secret; the old one stops working at once',
      description: 'Tokens issued before keep working until they expire.',
      at: '/secret',
      schema: ServiceAccountSecret,
      answer: 'the new secret, in this response only',
    },
    async (deps, org, id, actor) => ({
      client_secret: await rotateServiceAccountSecret(deps, org, id, actor),
    }),
  ),
];
