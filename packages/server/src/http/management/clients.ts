import type { z } from 'zod';
import {
  allowedOriginsOf,
  createClient,
  deleteClient,
  getClient,
  listClients,
  listLogoutDeliveries,
  rotateClientSecret,
  updateClient,
} from '../../domain/directory/index.js';
import { isoTime, isoTimeOrNull } from '../../domain/iso-time.js';
import type { Client, LogoutDelivery } from '../../domain/types.js';
import { managementInput, sentFields } from './api-input.js';
import {
  ClientList,
  Client as ClientSchema,
  ClientSecret,
  ClientsQuery,
  type Client as ClientView,
  CreateClientBody,
  CreatedClient,
  LogoutDeliveriesQuery,
  LogoutDeliveryList,
  type LogoutDelivery as LogoutDeliveryView,
  UpdateClientBody,
} from './clients-schemas.js';
import { endpoint } from './endpoint.js';
import { ownedItems } from './owned-items.js';
import { apiError, listResponses } from './responses.js';

const view = (c: Client): z.output<typeof ClientView> => ({
  client_id: c.id,
  client_name: c.name,
  type: c.kind,
  redirect_uris: c.redirectUris,
  post_logout_redirect_uris: c.postLogoutRedirectUris,
  grant_types: c.grantTypes,
  first_party: c.firstParty,
  ...(c.jwks === undefined ? {} : { jwks: c.jwks }),
  ...(c.jwksUri === undefined ? {} : { jwks_uri: c.jwksUri }),
  ...(c.requestObjectSigningAlg === undefined
    ? {}
    : { request_object_signing_alg: c.requestObjectSigningAlg }),
  ...(c.userinfoSignedResponseAlg === undefined
    ? {}
    : { userinfo_signed_response_alg: c.userinfoSignedResponseAlg }),
  ...(c.backchannelLogout === undefined
    ? {}
    : {
        backchannel_logout_uri: c.backchannelLogout.uri,
        backchannel_logout_session_required: c.backchannelLogout.sessionRequired,
      }),
  ...(c.frontchannelLogout === undefined
    ? {}
    : {
        frontchannel_logout_uri: c.frontchannelLogout.uri,
        frontchannel_logout_session_required: c.frontchannelLogout.sessionRequired,
      }),
  ...(c.requirePushedRequests === true ? { require_pushed_authorization_requests: true as const } : {}),
  ...(c.dpopBoundAccessTokens === true ? { dpop_bound_access_tokens: true as const } : {}),
  ...(c.dpopNonceRequired === true ? { dpop_nonce_required: true as const } : {}),
  allowed_origins: allowedOriginsOf(c),
  created_at: isoTime(c.createdAt),
});

/**
 * The settings a creation or an update passes on as sent, under the domain's names: logout URIs,
 * signing keys and algorithms, the yes/no flags (absent: unchanged; a null clears).
 */
const SETTINGS = {
  backchannel_logout_uri: 'backchannelLogoutUri',
  backchannel_logout_session_required: 'backchannelLogoutSessionRequired',
  frontchannel_logout_uri: 'frontchannelLogoutUri',
  frontchannel_logout_session_required: 'frontchannelLogoutSessionRequired',
  jwks: 'jwks',
  jwks_uri: 'jwksUri',
  request_object_signing_alg: 'requestObjectSigningAlg',
  userinfo_signed_response_alg: 'userinfoSignedResponseAlg',
  require_pushed_authorization_requests: 'requirePushedRequests',
  dpop_bound_access_tokens: 'dpopBoundAccessTokens',
  dpop_nonce_required: 'dpopNonceRequired',
} as const;

const deliveryView = (d: LogoutDelivery): z.output<typeof LogoutDeliveryView> => ({
  id: d.id,
  url: d.url,
  sub: d.sub,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: isoTimeOrNull(d.nextAttemptAt),
  last_attempt_at: isoTimeOrNull(d.lastAttemptAt),
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  created_at: isoTime(d.createdAt),
});

const clients = ownedItems({ collection: 'clients', noun: 'client', prefix: 'cli' });

/**
 * An org's OAuth clients (owners only; members 403): list, create (a confidential client's secret
 * is shown there once), read, update, delete (ending its sessions), and a new secret.
 */
export const CLIENT_ENDPOINTS = [
  clients.list(
    {
      operationId: 'listClients',
      summary: 'List the org’s OAuth clients (never their secrets)',
      query: ClientsQuery,
      responses: listResponses(ClientList),
    },
    listClients,
    view,
  ),
  clients.create(
    {
      operationId: 'createClient',
      summary: 'Create an OAuth client',
      description:
        'A confidential client’s `client_secret` is in this response only (`Cache-Control: no-store`); ' +
        'it is stored as a hash. A public client has none.',
      body: CreateClientBody,
      schema: CreatedClient,
    },
    async (deps, caller, body) => {
      const input = {
        name: body.client_name,
        kind: body.type,
        redirectUris: body.redirect_uris ?? [],
        postLogoutRedirectUris: body.post_logout_redirect_uris ?? [],
        ...(body.grant_types ? { grantTypes: body.grant_types } : {}),
        ...(body.first_party === undefined ? {} : { firstParty: body.first_party }),
        ...(body.allowed_origins ? { allowedOrigins: body.allowed_origins } : {}),
        ...sentFields(body, SETTINGS),
      };
      const { client, secret } = await managementInput(createClient(deps, caller.org, input, caller.actor));
      return secret === null ? view(client) : { ...view(client), client_secret: secret };
    },
  ),
  clients.get(
    { operationId: 'getClient', summary: 'One of the org’s OAuth clients', schema: ClientSchema },
    async (deps, org, id) => view(await getClient(deps, org, id)),
  ),
  clients.update(
    {
      operationId: 'updateClient',
      summary: 'Change a client’s name, redirect URIs or grant types',
      description:
        'Absent fields keep their value; a list given replaces the stored one. The grant types are ' +
        'checked against the redirect URIs the client ends up with.',
      body: UpdateClientBody,
      schema: ClientSchema,
    },
    async (deps, caller, id, body) => {
      const changes = {
        ...(body.client_name === undefined ? {} : { name: body.client_name }),
        ...(body.redirect_uris ? { redirectUris: body.redirect_uris } : {}),
        ...(body.post_logout_redirect_uris ? { postLogoutRedirectUris: body.post_logout_redirect_uris } : {}),
        ...(body.grant_types ? { grantTypes: body.grant_types } : {}),
        ...(body.allowed_origins === undefined ? {} : { allowedOrigins: body.allowed_origins }),
        ...sentFields(body, SETTINGS),
      };
      return view(await managementInput(updateClient(deps, caller.org, id, changes, caller.actor)));
    },
  ),
  endpoint(
    {
      ...clients.read,
      method: 'get',
      path: '/organizations/:org/clients/:id/logout-deliveries',
      operationId: 'listClientLogoutDeliveries',
      summary: 'The client’s back-channel logout deliveries, newest first (never a token)',
      description:
        'Each logout token queued for the client’s `backchannel_logout_uri` (OIDC Back-Channel Logout ' +
        '1.0): its status, attempts and the last attempt’s outcome. Retried on the webhooks’ schedule.',
      params: clients.params,
      query: LogoutDeliveriesQuery,
      responses: { ...listResponses(LogoutDeliveryList, 'one page, newest first'), 404: clients.notFound },
    },
    async ({ deps, caller, params, query, page }) => {
      const found = await listLogoutDeliveries(deps, caller.org, params.id, {
        page: query.page,
        perPage: query.per_page,
      });
      return page(found.entries.map(deliveryView), found.total);
    },
  ),
  clients.remove(
    {
      operationId: 'deleteClient',
      summary: 'Delete a client and end its sessions',
      description:
        'Every session of the client ends: its refresh and access tokens stop working, and the token ' +
        'endpoint no longer knows its `client_id` (`invalid_client`).',
    },
    deleteClient,
  ),
  clients.act(
    {
      operationId: 'rotateClientSecret',
      summary: 'Give a confidential client a new secret; the old one stops working at once',
      at: '/secret',
      schema: ClientSecret,
      answer: 'the new secret, in this response only',
      refusals: { 409: apiError('`conflict`: a public client has no secret') },
    },
    async (deps, org, id, actor) => ({ client_secret: await rotateClientSecret(deps, org, id, actor) }),
  ),
];
