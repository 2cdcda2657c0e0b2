import { ApiError, Webhook } from '../management/api-schemas.js';
import {
  Client,
  ClientList,
  ClientSecret,
  ClientsQuery,
  CreateClientBody,
  CreatedClient,
  UpdateClientBody,
} from '../management/clients-schemas.js';
import { KeysQuery, RotatedKeys, SigningKeyList } from '../management/keys-schemas.js';
import { UpdateWebhookBody } from '../management/webhooks-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const ORG = { org: 'the org id (`org_…`) or slug' };
const CLIENT = { ...ORG, id: 'the client id (`cli_…`)' };
const error = (description: string): ResponseSpec => ({ description, schema: ApiError });
const unauthorized = error('no valid console token (`WWW-Authenticate: Bearer`)');
const forbidden = error('`forbidden`: the caller is a member but not an owner of the org');
const noOrg = error('`not_found`: no such org, or the token cannot manage it');
const noClient = error('`not_found`: no such org, or no such client in it');
const invalid = error('`invalid_request`: an unknown field, or a value failing validation (named)');
const PAGED = {
  link: 'RFC 8288 relations first, prev, next, last; absent when every entry fits on one page',
};
const badQuery = error('`invalid_query`: unknown or repeated parameter, or value out of range');

/** An org's OAuth clients and signing keys, and webhook updates (management API, owners only). */
export const CLIENT_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/organizations/:org/clients',
    operationId: 'listClients',
    summary: 'List the org’s OAuth clients (never their secrets)',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: ORG,
    query: ClientsQuery,
    responses: {
      200: { description: 'one page, oldest first', schema: ClientList, headers: PAGED },
      400: badQuery,
      401: unauthorized,
      403: forbidden,
      404: noOrg,
    },
  },
  {
    method: 'post',
    path: '/organizations/:org/clients',
    operationId: 'createClient',
    summary: 'Create an OAuth client',
    description:
      'A confidential client’s `client_secret` is in this response only (`Cache-Control: no-store`); ' +
      'it is stored as a hash. A public client has none.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: ORG,
    body: { contentType: 'application/json', schema: CreateClientBody },
    responses: {
      201: { description: 'created', schema: CreatedClient },
      400: invalid,
      401: unauthorized,
      403: forbidden,
      404: noOrg,
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/clients/:id',
    operationId: 'getClient',
    summary: 'One of the org’s OAuth clients',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: CLIENT,
    responses: {
      200: { description: 'the client', schema: Client },
      401: unauthorized,
      403: forbidden,
      404: noClient,
    },
  },
  {
    method: 'patch',
    path: '/organizations/:org/clients/:id',
    operationId: 'updateClient',
    summary: 'Change a client’s name, redirect URIs or grant types',
    description:
      'Absent fields keep their value; a list given replaces the stored one. The grant types are ' +
      'checked against the redirect URIs the client ends up with.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: CLIENT,
    body: { contentType: 'application/json', schema: UpdateClientBody },
    responses: {
      200: { description: 'the client as updated', schema: Client },
      400: invalid,
      401: unauthorized,
      403: forbidden,
      404: noClient,
    },
  },
  {
    method: 'delete',
    path: '/organizations/:org/clients/:id',
    operationId: 'deleteClient',
    summary: 'Delete a client and end its sessions',
    description:
      'Every session of the client ends: its refresh and access tokens stop working, and the token ' +
      'endpoint no longer knows its `client_id` (`invalid_client`).',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: CLIENT,
    responses: {
      204: { description: 'deleted; no body' },
      401: unauthorized,
      403: forbidden,
      404: noClient,
    },
  },
  {
    method: 'post',
    path: '/organizations/:org/clients/:id/secret',
    operationId: 'rotateClientSecret',
    summary: 'Give a confidential client a new secret; the old one stops working at once',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: CLIENT,
    responses: {
      200: { description: 'the new secret, in this response only', schema: ClientSecret },
      401: unauthorized,
      403: forbidden,
      404: noClient,
      409: error('`conflict`: a public client has no secret'),
    },
  },
  {
    method: 'get',
    path: '/organizations/:org/keys',
    operationId: 'listSigningKeys',
    summary: 'The org’s published signing keys (never key material)',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:read',
    params: ORG,
    query: KeysQuery,
    responses: {
      200: {
        description: 'one page: the next key, the active one, then retired ones newest first',
        schema: SigningKeyList,
        headers: PAGED,
      },
      400: badQuery,
      401: unauthorized,
      403: forbidden,
      404: noOrg,
    },
  },
  {
    method: 'post',
    path: '/organizations/:org/keys/rotate',
    operationId: 'rotateSigningKeys',
    summary: 'Rotate the org’s signing key',
    description:
      'The published `next` key starts signing; the active one is retired but stays published until ' +
      'the tokens it signed have expired; a new `next` key is published.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: ORG,
    responses: {
      200: { description: 'rotated', schema: RotatedKeys },
      401: unauthorized,
      403: forbidden,
      404: noOrg,
    },
  },
  {
    method: 'patch',
    path: '/organizations/:org/webhooks/:id',
    operationId: 'updateWebhook',
    summary: 'Change a webhook’s URL, events or active flag',
    description:
      'Absent fields keep their value. `active: true` turns a webhook back on after failing ' +
      'deliveries turned it off; events from then on are delivered to it.',
    tag: 'management',
    hosts: 'console',
    auth: 'console',
    scope: 'org:write',
    params: { ...ORG, id: 'the webhook id (`whk_…`)' },
    body: { contentType: 'application/json', schema: UpdateWebhookBody },
    responses: {
      200: { description: 'the webhook as updated (never its secret)', schema: Webhook },
      400: invalid,
      401: unauthorized,
      403: forbidden,
      404: error('`not_found`: no such org or webhook in it, or not a `whk_` id'),
    },
  },
];
