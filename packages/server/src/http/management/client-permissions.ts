import { getClientPermissions, setPermissionsOfClient } from '../../domain/resources/index.js';
import { managementInput } from './api-input.js';

import { endpoint, ok } from './endpoint.js';
import { apiError, forbidden, MANAGEMENT, ORG, unauthorized } from './responses.js';
import { PermissionList, SetClientPermissionsBody } from './roles-schemas.js';

const CLIENT = { ...ORG, id: 'the client id (`cli_…`)' } as const;
const noClient = apiError('`not_found`: no such org, or no such client in it');

/** A machine client's permissions (owners only; members 403): read, replace. Not paged. */
export const CLIENT_PERMISSION_ENDPOINTS = [
  endpoint(
    {
      ...MANAGEMENT,
      scope: 'org:read',
      who: 'owners',
      method: 'get',
      path: '/organizations/:org/clients/:id/permissions',
      operationId: 'getClientPermissions',
      summary: 'The resource scopes a machine client may get tokens for',
      params: CLIENT,
      responses: {
        200: { description: 'every permission of the client (not paged)', schema: PermissionList },
        401: unauthorized,
        403: forbidden,
        404: noClient,
      },
    },
    async ({ deps, caller, params }) => {
      const permissions = await getClientPermissions(deps, caller.org, params.id);
      return ok({ data: permissions });
    },
  ),
  endpoint(
    {
      ...MANAGEMENT,
      scope: 'org:write',
      who: 'owners',
      method: 'put',
      path: '/organizations/:org/clients/:id/permissions',
      operationId: 'setClientPermissions',
      summary: 'Replace a confidential client’s permissions',
      params: CLIENT,
      body: { contentType: 'application/json', schema: SetClientPermissionsBody, errors: 'invalid_request' },
      responses: {
        200: { description: 'the client’s permissions now', schema: PermissionList },
        400: apiError(
          '`invalid_request`: a public client, or a permission naming no resource scope of the org',
        ),
        401: unauthorized,
        403: forbidden,
        404: noClient,
      },
    },
    async ({ deps, caller, params, body }) => {
      const permissions = await managementInput(
        setPermissionsOfClient(deps, caller.org, params.id, body.permissions, caller.actor),
      );
      return ok({ data: permissions });
    },
  ),
];
