import type { z } from 'zod';
import {
  createTrustedApp,
  deleteTrustedApp,
  getTrustedApp,
  listTrustedApps,
  updateTrustedApp,
} from '../../domain/enterprise-access/index.js';
import type { TrustedApp } from '../../domain/types.js';
import { managementInput } from './api-input.js';
import { created, endpoint, noContent, ok } from './endpoint.js';
import {
  apiError,
  createResponses,
  forbidden,
  invalid,
  MANAGEMENT,
  noOrg,
  ORG,
  unauthorized,
} from './responses.js';
import {
  CreateTrustedAppBody,
  TrustedAppList,
  TrustedAppRecord,
  UpdateTrustedAppBody,
} from './trusted-apps-schemas.js';

const view = (a: TrustedApp): z.output<typeof TrustedAppRecord> => ({
  id: a.id,
  name: a.name,
  audience: a.audience,
  target_client_id: a.targetClientId,
  client_ids: a.clientIds,
  resources: a.resources,
  scopes: a.scopes,
  created_at: new Date(a.createdAt).toISOString(),
  updated_at: new Date(a.updatedAt).toISOString(),
});

const APP = { ...ORG, id: 'the trusted app id (`tap_…`)' } as const;
const noApp = apiError('`not_found`: no such org, or no such trusted app in it');
const clientTaken = apiError(
  '`conflict`: another trusted app already gives one of these clients this audience',
);
const read = { ...MANAGEMENT, scope: 'org:read', who: 'owners' } as const;
const write = { ...MANAGEMENT, scope: 'org:write', who: 'owners' } as const;

/**
 * The org's trusted apps (owners only; members 403): the target authorization servers some of its
 * confidential clients may get ID-JAGs for (Enterprise-Managed Authorization, DESIGN §20).
 */
export const TRUSTED_APP_ENDPOINTS = [
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/trusted-apps',
      operationId: 'listTrustedApps',
      summary: 'List the apps the org issues ID-JAGs for',
      params: ORG,
      responses: {
        200: { description: 'every trusted app, oldest first', schema: TrustedAppList },
        401: unauthorized,
        403: forbidden,
        404: noOrg,
      },
    },
    async ({ deps, caller }) => ok({ data: (await listTrustedApps(deps, caller.org)).map(view) }),
  ),
  endpoint(
    {
      ...write,
      method: 'post',
      path: '/organizations/:org/trusted-apps',
      operationId: 'createTrustedApp',
      summary: 'Let some of the org’s clients get ID-JAGs for a target authorization server',
      params: ORG,
      body: { contentType: 'application/json', schema: CreateTrustedAppBody, errors: 'invalid_request' },
      responses: { ...createResponses(TrustedAppRecord), 409: clientTaken },
    },
    async ({ deps, caller, body }) => {
      const app = await managementInput(
        createTrustedApp(
          deps,
          caller.org,
          {
            name: body.name,
            audience: body.audience,
            targetClientId: body.target_client_id,
            clientIds: body.client_ids,
            resources: body.resources,
            scopes: body.scopes,
          },
          caller.actor,
        ),
      );
      return created(view(app));
    },
  ),
  endpoint(
    {
      ...read,
      method: 'get',
      path: '/organizations/:org/trusted-apps/:id',
      operationId: 'getTrustedApp',
      summary: 'One of the org’s trusted apps',
      params: APP,
      responses: {
        200: { description: 'the trusted app', schema: TrustedAppRecord },
        401: unauthorized,
        403: forbidden,
        404: noApp,
      },
    },
    async ({ deps, caller, params }) => ok(view(await getTrustedApp(deps, caller.org, params.id))),
  ),
  endpoint(
    {
      ...write,
      method: 'patch',
      path: '/organizations/:org/trusted-apps/:id',
      operationId: 'updateTrustedApp',
      summary: 'Change a trusted app',
      description: 'Absent fields keep their value; a given list replaces the stored one.',
      params: APP,
      body: { contentType: 'application/json', schema: UpdateTrustedAppBody, errors: 'invalid_request' },
      responses: {
        200: { description: 'the trusted app as updated', schema: TrustedAppRecord },
        400: invalid,
        401: unauthorized,
        403: forbidden,
        404: noApp,
        409: clientTaken,
      },
    },
    async ({ deps, caller, params, body }) => {
      const app = await managementInput(
        updateTrustedApp(
          deps,
          caller.org,
          params.id,
          {
            name: body.name,
            audience: body.audience,
            targetClientId: body.target_client_id,
            clientIds: body.client_ids,
            resources: body.resources,
            scopes: body.scopes,
          },
          caller.actor,
        ),
      );
      return ok(view(app));
    },
  ),
  endpoint(
    {
      ...write,
      method: 'delete',
      path: '/organizations/:org/trusted-apps/:id',
      operationId: 'deleteTrustedApp',
      summary: 'Delete a trusted app: no more ID-JAGs for it',
      params: APP,
      responses: {
        204: { description: 'deleted; no body' },
        401: unauthorized,
        403: forbidden,
        404: noApp,
      },
    },
    async ({ deps, caller, params }) => {
      await deleteTrustedApp(deps, caller.org, params.id, caller.actor);
      return noContent();
    },
  ),
];
