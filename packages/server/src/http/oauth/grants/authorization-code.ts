import { redeemAuthorizationCode } from '../../../domain/sign-in/index.js';
import { authenticateSigningClient } from '../../../domain/tokens/index.js';
import type { Grant } from './types.js';
import { dpopKey, tokenResponse } from './user-grant-steps.js';

/**
 * `authorization_code` (RFC 6749 §4.1.3 with PKCE, RFC 7636). `resource` (RFC 8707) picks one of
 * the resources the authorization granted (DESIGN §15); `scope` is understood and, as the code
 * already carries the grant, changes nothing.
 */
export const authorizationCode: Grant = {
  parameters: ['code', 'redirect_uri', 'code_verifier', 'resource'],
  async handle(ctx) {
    // The client and the org's signing key in one lookup, kept like client_credentials' (client-auth.ts).
    const { client, activeKid } = await authenticateSigningClient(ctx.deps, ctx.org, ctx.client);
    const set = await redeemAuthorizationCode(
      ctx.deps,
      ctx.org,
      { client, activeKid },
      {
        code: ctx.params.code,
        redirectUri: ctx.params.redirect_uri,
        codeVerifier: ctx.params.code_verifier,
        resource: ctx.params.resource,
        dpopJkt: await dpopKey(ctx, client),
      },
    );
    return tokenResponse(set);
  },
};
