import { issuerOf } from '../../domain/issuers.js';
import { startDeviceAuthorization } from '../../domain/sign-in/index.js';
import { authenticateClient } from '../../domain/tokens/index.js';
import { clientForm, oauthParams } from '../form.js';
import { noStore } from '../no-store.js';
import { DeviceAuthorizationRequest, DeviceAuthorizationResponse } from '../openapi/described-schemas.js';
import { FORM, noOrgAtHost, oauthError } from '../openapi/oauth-responses.js';
import { orgOf } from '../org-routing.js';
import { operation } from '../served-operation.js';
import { DEVICE_PATH } from '../sign-in/device.js';
import { CLIENT_AUTH_PARAMETERS, presentedClient } from './client-authentication.js';

/**
 * POST /oauth/device_authorization (RFC 8628 §3.1–3.2): the client authenticates as at the token
 * endpoint (a public client by its client_id alone), must have the device grant, and asks for
 * `scope` and `resource` values as in the code flow. The answer names the device code, the user
 * code and where the person enters it: `{issuer}device`, and the same with the code filled in.
 */
export const deviceAuthorization = operation(
  {
    method: 'post',
    path: '/oauth/device_authorization',
    operationId: 'deviceAuthorization',
    summary: 'Device authorization (RFC 8628): a device code and a user code for a device without a browser',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: FORM, schema: DeviceAuthorizationRequest },
    responses: {
      200: { description: 'the codes and where to enter the user code', schema: DeviceAuthorizationResponse },
      400: oauthError('RFC 6749 §5.2 errors: `unauthorized_client`, `invalid_scope`, `invalid_target`'),
      401: oauthError('`invalid_client`'),
      404: noOrgAtHost,
    },
  },
  ({ deps }) => ({
    onSend: [noStore],
    handler: async (request) => {
      const form = clientForm(request);
      // RFC 8707 §2: `resource` may be given once per resource; every other parameter once.
      const resources = (form.get('resource') ?? []).filter((r) => r !== '');
      const single = new Map([...form].filter(([name]) => name !== 'resource'));
      const params = oauthParams(single, ['scope', ...CLIENT_AUTH_PARAMETERS]);
      const org = await orgOf(deps, request);
      const issuer = issuerOf(deps.config, org);
      const presented = presentedClient(request, params, issuer);
      const client = await authenticateClient(deps, org, presented, '/oauth/device_authorization');
      const started = await startDeviceAuthorization(deps, org, client, { scope: params.scope, resources });
      const verification = new URL(DEVICE_PATH.slice(1), issuer);
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
