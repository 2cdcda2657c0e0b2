import { rotateRefreshToken } from '../../../domain/tokens/refresh-tokens.js';
import type { Grant } from './types.js';
import { authenticatedClient, requireParam, tokenResponse } from './user-grant-steps.js';

/**
 * `refresh_token` (RFC 6749 §6), rotated on every use; `scope` may only narrow; `resource`
 * accepted as on the code grant.
 */
export const refreshToken: Grant = {
  parameters: ['refresh_token', 'client_id', 'client_secret', 'resource', 'scope'],
  async handle(ctx) {
    const client = await authenticatedClient(ctx);
    const presented = requireParam(ctx.params, 'refresh_token');
    return tokenResponse(await rotateRefreshToken(ctx.deps, ctx.org, client, presented, ctx.params.scope));
  },
};
