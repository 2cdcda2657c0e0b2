import { redeemDeviceCode } from '../../../domain/sign-in/index.js';
import type { Grant } from './types.js';
import { authenticatedClient, tokenResponse } from './user-grant-steps.js';

/**
 * `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4): the device polls with its device
 * code; `authorization_pending`, `slow_down`, `access_denied` and `expired_token` until the
 * person's answer, then the tokens the code flow gives, once. `resource` (RFC 8707) picks one of
 * the resources the authorization granted, as in the code flow.
 */
export const deviceCode: Grant = {
  parameters: ['device_code', 'resource'],
  async handle(ctx) {
    const client = await authenticatedClient(ctx);
    const set = await redeemDeviceCode(ctx.deps, ctx.org, client, {
      deviceCode: ctx.params.device_code,
      resource: ctx.params.resource,
    });
    return tokenResponse(set);
  },
};
