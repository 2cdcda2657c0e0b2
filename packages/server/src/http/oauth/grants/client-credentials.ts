import { authenticateMachineClient } from '../../../domain/tokens/client-auth.js';
import { issueMachineToken } from '../../../domain/tokens/machine-tokens.js';
import type { Grant } from './types.js';

/** `client_credentials` with client_secret_post: machine tokens for confidential clients. */
export const clientCredentials: Grant = {
  parameters: ['client_id', 'client_secret'],
  async handle({ deps, org, params }) {
    // One query, or none on a cache hit: the client, its secret hash and the org's active key id.
    // The PostgreSQL cache is emptied by the NOTIFY a change sends (docs/token-endpoint.md).
    const { client, activeKid } = await authenticateMachineClient(
      deps.db,
      org.id,
      params.client_id,
      params.client_secret,
      deps.credentials,
    );
    const token = await issueMachineToken(deps, org, client, activeKid);
    return { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn };
  },
};
