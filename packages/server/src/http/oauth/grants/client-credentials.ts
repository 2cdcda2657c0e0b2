import { authenticateMachineClient } from '../../../domain/client-auth.js';
import { fail } from '../../../domain/errors.js';
import { issueMachineToken } from '../../../domain/machine-tokens.js';
import type { Grant } from './types.js';

/** `client_credentials` with client_secret_post: machine tokens for confidential clients. */
export const clientCredentials: Grant = {
  parameters: ['client_id', 'client_secret'],
  async handle({ deps, org, params }) {
    const clientId = params.client_id ?? fail('invalid_request', 'client_id is required');
    // One query: the client, its secret hash and the org's active key id (read fresh, so a
    // rotation or a deleted client takes effect at once).
    const { client, activeKid } = await authenticateMachineClient(
      deps.db,
      org.id,
      clientId,
      params.client_secret,
    );
    const token = await issueMachineToken(deps, org, client, activeKid);
    return { access_token: token.accessToken, token_type: 'Bearer', expires_in: token.expiresIn };
  },
};
