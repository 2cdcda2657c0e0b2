import { switchTenant as switchSessionTenant } from '../../../domain/tokens/index.js';
import type { Grant } from './types.js';
import { authenticatedClient, dpopKey, requireParam, tokenResponse } from './user-grant-steps.js';

/** `urn:service:params:oauth:grant-type:switch-tenant`: a new TokenSet of the same session in another tenant. */
export const switchTenant: Grant = {
  parameters: ['access_token', 'tenant_id'],
  async handle(ctx) {
    const client = await authenticatedClient(ctx);
    const accessToken = requireParam(ctx.params, 'access_token');
    const tenantId = requireParam(ctx.params, 'tenant_id');
    const jkt = await dpopKey(ctx, client);
    return tokenResponse(await switchSessionTenant(ctx.deps, ctx.org, client, accessToken, tenantId, jkt));
  },
};
