import { findClientWithSecret } from '../../storage/repos/clients.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import type { Client, Org } from '../types.js';
import { verifyAccessToken } from './access-tokens.js';
import { requireTokenExchange } from './client-grants.js';
import type { TokensDeps } from './deps.js';
import { signSessionToken } from './user-tokens.js';

/** RFC 8693 §2.1 and §3. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface ExchangeRequest {
  subjectToken: string;
  subjectTokenType: string;
  requestedTokenType: string | undefined;
  audience: string | undefined;
}

export interface PromotedToken {
  accessToken: string;
  expiresIn: number;
  issuedTokenType: typeof ACCESS_TOKEN_TYPE;
}

/**
 * Promotes a user token (RFC 8693 token exchange): a confidential client presents a live user
 * token that one of its promotable public clients received, and gets a user token of the same
 * person, tenant and session whose `aud` is itself and whose `azp` is that public client. The
 * token never outlives the subject token, and no refresh token comes with it. Errors:
 *
 * | error | when |
 * |---|---|
 * | `invalid_request` | a parameter missing or of another token type |
 * | `invalid_target` | `audience` other than the client itself |
 * | `unauthorized_client` | the client is not confidential or lists no promotable client; the subject token's client is not on its list |
 * | `invalid_grant` | the subject token is not a live user token of this org (bad signature, expired, revoked session, another org, a machine or console token, itself promoted) |
 */
export async function promoteToken(
  deps: TokensDeps,
  org: Org,
  client: Client,
  input: ExchangeRequest,
): Promise<PromotedToken> {
  const promotable = await requireTokenExchange(deps.store, client);
  if (input.subjectTokenType !== ACCESS_TOKEN_TYPE) {
    fail('token.exchange.subject_token_type', `subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  }
  if (input.requestedTokenType !== undefined && input.requestedTokenType !== ACCESS_TOKEN_TYPE) {
    fail('token.exchange.requested_token_type', `requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
  }
  if (input.audience !== undefined && input.audience !== client.id) {
    fail('token.exchange.audience', 'a promoted token is issued to the exchanging client only');
  }
  const subject = await verifyAccessToken(deps, org, input.subjectToken, ['user']);
  if (!subject || subject.authorizedParty !== null) {
    return fail(
      'token.exchange.subject_token_invalid',
      'subject_token is not a live user token of this organization',
    );
  }
  const source = await findClientWithSecret(deps.store, org.id, subject.clientId);
  if (source?.client.kind !== 'public' || !promotable.includes(source.client.id)) {
    return fail(
      'token.exchange.client_not_promotable',
      'this client may not promote tokens of the subject token’s client',
    );
  }
  const signer = await deps.keyRing.signer(org);
  const signed = await signSessionToken(deps, signer, org, subject.session, clock.now(), {
    audience: client.id,
    authorizedParty: source.client.id,
    tenantId: subject.tenantId,
    notAfterS: Number(subject.claims.exp),
  });
  return { ...signed, issuedTokenType: ACCESS_TOKEN_TYPE };
}
