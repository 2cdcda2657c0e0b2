import { authenticateSigningClient, rotateRefreshToken } from '../../../domain/tokens/index.js';
import type { Grant } from './types.js';
import { dpopKey, requireParam, tokenResponse } from './user-grant-steps.js';

/**
 * `refresh_token` (RFC 6749 §6), rotated on every use; `scope` may only narrow; `resource` picks
 * one of the resources the authorization granted, as on the code grant (DESIGN §15).
 */
export const refreshToken: Grant = {
  parameters: ['refresh_token', 'resource', 'scope'],
  async handle(ctx) {
    // The client and the org's signing key in one lookup, kept like client_credentials' (client-auth.ts).
    const { client, activeKid } = await authenticateSigningClient(ctx.deps, ctx.org, ctx.client);
    const presented = requireParam(ctx.params, 'refresh_token');
    const { scope, resource } = ctx.params;
    const jkt = await dpopKey(ctx, client);
    return tokenResponse(
      await rotateRefreshToken(ctx.deps, ctx.org, { client, activeKid }, presented, scope, resource, jkt),
    );
  },
};
