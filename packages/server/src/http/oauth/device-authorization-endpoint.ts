import { issuerOf } from '../../domain/issuers.js';
import { startDeviceAuthorization } from '../../domain/sign-in/index.js';
import { clientForm, oauthParams } from '../form.js';
import { DeviceAuthorizationRequest, DeviceAuthorizationResponse } from '../openapi/described-schemas.js';
import { oauthError } from '../openapi/oauth-responses.js';
import { DEVICE_PATH } from '../sign-in/device.js';
import { authenticatedClient, CLIENT_AUTH_PARAMETERS } from './client-authentication.js';
import { clientFormOperation } from './form-endpoint.js';

/**
 * POST /oauth/device_authorization (RFC 8628 §3.1–3.2): the client authenticates as at the token
 * endpoint (a public client by its client_id alone), must have the device grant, and asks for
 * `scope` and `resource` values as in the code flow. The answer names the device code, the user
 * code and where the person enters it: `{issuer}device`, and the same with the code filled in.
 */
export const deviceAuthorization = clientFormOperation(
  {
    path: '/oauth/device_authorization',
    operationId: 'deviceAuthorization',
    summary: 'Device authorization (RFC 8628): a device code and a user code for a device without a browser',
    form: DeviceAuthorizationRequest,
    responses: {
      200: { description: 'the codes and where to enter the user code', schema: DeviceAuthorizationResponse },
      400: oauthError('RFC 6749 §5.2 errors: `unauthorized_client`, `invalid_scope`, `invalid_target`'),
      401: oauthError('`invalid_client`'),
    },
  },
  ({ deps }) => ({
    handler: async (request) => {
      const form = clientForm(request);
      // RFC 8707 §2: `resource` may be given once per resource; every other parameter once.
      const resources = (form.get('resource') ?? []).filter((r) => r !== '');
      const single = new Map([...form].filter(([name]) => name !== 'resource'));
      const params = oauthParams(single, ['scope', ...CLIENT_AUTH_PARAMETERS]);
      const { org, client } = await authenticatedClient(deps, request, params, '/oauth/device_authorization');
      const started = await startDeviceAuthorization(deps, org, client, { scope: params.scope, resources });
      const verification = new URL(DEVICE_PATH.slice(1), issuerOf(deps.config, org));
      const complete = new URL(verification);
      complete.searchParams.set('user_code', started.userCode);
      return {
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: verification.href,
        verification_uri_complete: complete.href,
        expires_in: started.expiresIn,
        interval: started.interval,
      };
    },
  }),
);
