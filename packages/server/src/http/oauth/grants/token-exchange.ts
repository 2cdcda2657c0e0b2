import { ID_JAG_TOKEN_TYPE } from '../../../domain/enterprise-access/index.js';
import { fail } from '../../../domain/errors.js';
import { promoteToken } from '../../../domain/tokens/index.js';
import { exchangeForIdJag } from './id-jag-exchange.js';
import type { Grant } from './types.js';
import { authenticatedClient, requireParam } from './user-grant-steps.js';

/**
 * `urn:ietf:params:oauth:grant-type:token-exchange` (RFC 8693), by `requested_token_type`: an
 * ID-JAG (id-jag-exchange.ts), else a promoted token. `actor_token` (delegation chains) is not
 * supported: it is `invalid_request`, not ignored as unknown parameters are, since ignoring it would
 * issue a token without the actor the client asked for. `resource` and `scope` are an ID-JAG's only.
 */
export const tokenExchange: Grant = {
  parameters: [
    'subject_token',
    'subject_token_type',
    'requested_token_type',
    'audience',
    'actor_token',
    'resource',
    'scope',
  ],
  async handle(ctx) {
    if (ctx.params.actor_token !== undefined)
      fail('token.exchange.actor_token', 'actor_token is not supported');
    const client = await authenticatedClient(ctx);
    if (ctx.params.requested_token_type === ID_JAG_TOKEN_TYPE) return exchangeForIdJag(ctx, client);
    const promoted = await promoteToken(ctx.deps, ctx.org, client, {
      subjectToken: requireParam(ctx.params, 'subject_token'),
      subjectTokenType: requireParam(ctx.params, 'subject_token_type'),
      requestedTokenType: ctx.params.requested_token_type,
      audience: ctx.params.audience,
    });
    // RFC 8693 §2.2.1: issued_token_type is required; token_type is Bearer for an access token.
    return {
      access_token: promoted.accessToken,
      issued_token_type: promoted.issuedTokenType,
      token_type: 'Bearer',
      expires_in: promoted.expiresIn,
    };
  },
};
