import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { issuerOf } from '../../domain/issuers.js';
import { authenticateClient, JWT_BEARER_ASSERTION, type PresentedClient } from '../../domain/tokens/index.js';
import type { Client, Org } from '../../domain/types.js';
import { parseBasicCredentials } from '../basic-credentials.js';
import { orgOf } from '../org-routing.js';

/** The body parameters by which a client authenticates (besides an `Authorization: Basic` header). */
export const CLIENT_AUTH_PARAMETERS = [
  'client_id',
  'client_secret',
  'client_assertion',
  'client_assertion_type',
] as const;

type ClientAuthParams = Partial<Record<(typeof CLIENT_AUTH_PARAMETERS)[number], string>>;

/** A failed Basic header: 401 invalid_client with the challenge, as a wrong Basic secret gets. */
const badBasic = (realm: string): never =>
  fail('client_auth.basic.malformed', 'client authentication failed', {
    'www-authenticate': `Basic realm="${realm}"`,
  });

/** The client id and secret of an `Authorization: Basic` header; any other header is a failed authentication. */
function basicCredentials(header: string, realm: string): { clientId: string; secret: string } {
  return parseBasicCredentials(header) ?? badBasic(realm);
}

/**
 * How the request authenticates its client (DESIGN §14): `client_secret_basic` (the header),
 * `client_secret_post`, `private_key_jwt` (RFC 7523), or `none` (a client_id only). More than
 * one method in one request is `invalid_request` (RFC 6749 §2.3). `realm` is the issuer, named
 * in the challenge a failed Basic authentication answers.
 */
export function presentedClient(
  request: FastifyRequest,
  params: ClientAuthParams,
  realm: string,
): PresentedClient {
  const header = request.headers.authorization;
  const assertionGiven = params.client_assertion !== undefined || params.client_assertion_type !== undefined;
  const methods = [header !== undefined, params.client_secret !== undefined, assertionGiven].filter(Boolean);
  if (methods.length > 1)
    fail('client_auth.methods.multiple', 'use one client authentication method per request');
  if (header !== undefined) {
    const basic = basicCredentials(header, realm);
    if (params.client_id !== undefined && params.client_id !== basic.clientId) {
      fail(
        'client_auth.basic.client_id_mismatch',
        'client_id does not match the client the credentials are for',
      );
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (params.client_secret !== undefined) {
    return { method: 'client_secret_post', clientId: params.client_id, secret: params.client_secret };
  }
  if (assertionGiven) {
    if (params.client_assertion_type !== JWT_BEARER_ASSERTION) {
      fail('client_auth.assertion_type.unsupported', `client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
    }
    const assertion =
      params.client_assertion ?? fail('client_auth.assertion.missing', 'client_assertion is required');
    return { method: 'private_key_jwt', clientId: params.client_id, assertion };
  }
  return { method: 'none', clientId: params.client_id };
}

/**
 * The org of the host and the client the request authenticates as at `endpoint` (a failure is 401
 * invalid_client). `confidentialOnly`: `none` is refused before any lookup.
 */
export async function authenticatedClient(
  deps: Deps,
  request: FastifyRequest,
  params: ClientAuthParams,
  endpoint: Parameters<typeof authenticateClient>[3],
  confidentialOnly = false,
): Promise<{ org: Org; client: Client }> {
  const org = await orgOf(deps, request);
  const presented = presentedClient(request, params, issuerOf(deps.config, org));
  if (confidentialOnly && presented.method === 'none')
    fail('client_auth.public_refused', 'client authentication failed');
  return { org, client: await authenticateClient(deps, org, presented, endpoint) };
}
