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
import { ownedItems } from './owned-items.js';
import { apiError } from './responses.js';
import { timestamps } from './times.js';
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
  ...timestamps(a),
});

const apps = ownedItems({ collection: 'trusted-apps', noun: 'trusted app', prefix: 'tap' });
const clientTaken = apiError(
  '`conflict`: another trusted app already gives one of these clients this audience',
);

/** The app as the domain takes it, from a creation or update body. */
const appInput = <B extends z.output<typeof UpdateTrustedAppBody>>(
  body: B,
): {
  name: B['name'];
  audience: B['audience'];
  targetClientId: B['target_client_id'];
  clientIds: B['client_ids'];
  resources: B['resources'];
  scopes: B['scopes'];
} => ({
  name: body.name,
  audience: body.audience,
  targetClientId: body.target_client_id,
  clientIds: body.client_ids,
  resources: body.resources,
  scopes: body.scopes,
});

/**
 * The org's trusted apps (owners only; members 403): the target authorization servers some of its
 * confidential clients may get ID-JAGs for (Enterprise-Managed Authorization, DESIGN §20).
 */
export const TRUSTED_APP_ENDPOINTS = [
  apps.all(
    {
      operationId: 'listTrustedApps',
      summary: 'List the apps the org issues ID-JAGs for',
      schema: TrustedAppList,
      answer: 'every trusted app, oldest first',
    },
    async (deps, org) => ({ data: (await listTrustedApps(deps, org)).map(view) }),
  ),
  apps.create(
    {
      operationId: 'createTrustedApp',
      summary: 'Let some of the org’s clients get ID-JAGs for a target authorization server',
      body: CreateTrustedAppBody,
      schema: TrustedAppRecord,
      refusals: { 409: clientTaken },
    },
    async (deps, caller, body) =>
      view(await managementInput(createTrustedApp(deps, caller.org, appInput(body), caller.actor))),
  ),
  apps.get(
    { operationId: 'getTrustedApp', summary: 'One of the org’s trusted apps', schema: TrustedAppRecord },
    async (deps, org, id) => view(await getTrustedApp(deps, org, id)),
  ),
  apps.update(
    {
      operationId: 'updateTrustedApp',
      summary: 'Change a trusted app',
      description: 'Absent fields keep their value; a given list replaces the stored one.',
      body: UpdateTrustedAppBody,
      schema: TrustedAppRecord,
      refusals: { 409: clientTaken },
    },
    async (deps, caller, id, body) =>
      view(await managementInput(updateTrustedApp(deps, caller.org, id, appInput(body), caller.actor))),
  ),
  apps.remove(
    { operationId: 'deleteTrustedApp', summary: 'Delete a trusted app: no more ID-JAGs for it' },
    deleteTrustedApp,
  ),
];
