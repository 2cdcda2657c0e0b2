import { getClientPermissions, setPermissionsOfClient } from '../../domain/resources/index.js';
import { managementInput } from './api-input.js';
import { ownedItems } from './owned-items.js';
import { apiError } from './responses.js';
import { PermissionList, SetClientPermissionsBody } from './roles-schemas.js';

const clients = ownedItems({ collection: 'clients', noun: 'client', prefix: 'cli' });

/** A machine client's permissions (owners only; members 403): read, replace. Not paged. */
export const CLIENT_PERMISSION_ENDPOINTS = [
  clients.get(
    {
      operationId: 'getClientPermissions',
      summary: 'The resource scopes a machine client may get tokens for',
      at: '/permissions',
      schema: PermissionList,
      answer: 'every permission of the client (not paged)',
    },
    async (deps, org, id) => ({ data: await getClientPermissions(deps, org, id) }),
  ),
  clients.replace(
    {
      operationId: 'setClientPermissions',
      summary: 'Replace a confidential client’s permissions',
      at: '/permissions',
      body: SetClientPermissionsBody,
      schema: PermissionList,
      answer: 'the client’s permissions now',
      refusals: {
        400: apiError(
          '`invalid_request`: a public client, or a permission naming no resource scope of the org',
        ),
      },
    },
    async (deps, caller, id, body) => {
      const permissions = await managementInput(
        setPermissionsOfClient(deps, caller.org, id, body.permissions, caller.actor),
      );
      return { data: permissions };
    },
  ),
];
