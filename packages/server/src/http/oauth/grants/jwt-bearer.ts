import { redeemIdJag } from '../../../domain/enterprise-access/index.js';
import { fail } from '../../../domain/errors.js';
import type { Grant } from './types.js';
import { authenticatedClient, dpopKey, requireParam, tokenResponse } from './user-grant-steps.js';

/**
 * `urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523 §2.1) taking an ID-JAG as `assertion`
 * (draft-ietf-oauth-identity-assertion-authz-grant §4.4): an access token for the resource it names,
 * without a consent screen and without a refresh token (domain/enterprise-access/id-jag-grant.ts).
 * The console issuer has no enterprise connections: there it is an unsupported grant type.
 */
export const jwtBearer: Grant = {
  parameters: ['assertion'],
  async handle(ctx) {
    if (ctx.org.isConsole) fail('token.grant_type.unsupported', 'this grant type is not supported');
    const client = await authenticatedClient(ctx);
    const assertion = requireParam(ctx.params, 'assertion');
    const set = await redeemIdJag(ctx.deps, ctx.org, client, assertion, await dpopKey(ctx, client));
    return tokenResponse(set);
  },
};
