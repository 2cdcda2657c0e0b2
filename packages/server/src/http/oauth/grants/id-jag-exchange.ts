import { ID_JAG_TOKEN_TYPE, issueIdJag } from '../../../domain/enterprise-access/index.js';
import type { Client } from '../../../domain/types.js';
import type { GrantContext, TokenResponse } from './types.js';
import { requireParam } from './user-grant-steps.js';

/**
 * Token exchange for an ID-JAG (draft-ietf-oauth-identity-assertion-authz-grant §4.3): the org as
 * the enterprise identity provider. The answer is RFC 8693 §2.2.1's: the ID-JAG in `access_token`
 * (for historical reasons: it is no access token), `issued_token_type` the ID-JAG's, `token_type`
 * `N_A`, and the scopes granted.
 */
export async function exchangeForIdJag(ctx: GrantContext, client: Client): Promise<TokenResponse> {
  const issued = await issueIdJag(ctx.deps, ctx.org, client, {
    subjectToken: requireParam(ctx.params, 'subject_token'),
    subjectTokenType: requireParam(ctx.params, 'subject_token_type'),
    audience: requireParam(ctx.params, 'audience'),
    resource: ctx.params.resource,
    scope: ctx.params.scope,
  });
  return {
    access_token: issued.idJag,
    issued_token_type: ID_JAG_TOKEN_TYPE,
    token_type: 'N_A',
    expires_in: issued.expiresIn,
    ...(issued.scope === undefined ? {} : { scope: issued.scope }),
  };
}
