import { secretMatches, sha256 } from '../../crypto/random.js';
import { findClientWithActiveKid, findClientWithSecret } from '../../storage/repos/clients.js';
import { isUrlClientId, metadataDocumentClient } from '../directory/client-metadata-documents.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import type { Client, MachineClient, Org } from '../types.js';
import { assertionClientId, verifyClientAssertion } from './client-assertions.js';
import type { TokensDeps } from './deps.js';

/** How a client authenticates at the token, PAR, revocation and introspection endpoints (DESIGN §14). */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

/** Every method, in the order discovery lists them. */
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];

/** What a request presented to authenticate its client: one method, as the transport read it. */
export type PresentedClient =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string | undefined; secret: string }
  | { method: 'private_key_jwt'; clientId: string | undefined; assertion: string }
  | { method: 'none'; clientId: string | undefined };

/** Where the client authenticates: the endpoint's path, for an assertion's `aud`. */
export type ClientAuthEndpoint =
  | '/oauth/token'
  | '/oauth/par'
  | '/oauth/revoke'
  | '/oauth/introspect'
  | '/oauth/device_authorization';

// Compared against when the client is unknown, so both failures take the same time.
const DECOY_HASH = sha256('decoy client secret');

const INVALID = 'client authentication failed';

type Found = { client: Client; secretHash: string | null } | null;

/**
 * The client a request names. A private_key_jwt request may name it in the assertion only; a
 * client_id beside it must be the same.
 */
function namedClientId(presented: PresentedClient): string {
  const named =
    presented.method === 'private_key_jwt' ? assertionClientId(presented.assertion) : presented.clientId;
  if (presented.clientId !== undefined && named !== presented.clientId) {
    fail('client_auth.client_id.mismatch', 'client_id does not match the client the credentials are for');
  }
  return named ?? fail('client_auth.client_id.missing', 'client_id is required');
}

/**
 * The answer to a failed authentication: 401, with a Basic challenge when Basic was tried (RFC 6749
 * §5.2). `why` is said after the generic words only to a client that proved itself (client-assertions.ts).
 */
function refuse(
  deps: Pick<TokensDeps, 'config'>,
  org: Org,
  presented: PresentedClient,
  why: string | null = null,
): never {
  const challenge =
    presented.method === 'client_secret_basic'
      ? { 'www-authenticate': `Basic realm="${issuerOf(deps.config, org)}"` }
      : undefined;
  // One situation for an unknown client and a wrong secret, so the code tells them apart no more than the words.
  const situation = why === null ? 'client_auth.failed' : 'client_auth.assertion.refused';
  return fail(situation, why === null ? INVALID : `${INVALID}: ${why}`, challenge);
}

/**
 * Checks what was presented against what is stored: the secret (constant time) for Basic and
 * post, the signed assertion for private_key_jwt, nothing for a public client (`none`), which
 * authenticates by holding the code or refresh token. An unknown client and any failed check give
 * the same `invalid_client`, but for an assertion whose signature held, which also says why.
 */
async function checkPresented(
  deps: Pick<TokensDeps, 'store' | 'config' | 'clientKeySets'>,
  org: Org,
  found: Found,
  presented: PresentedClient,
  endpoint: ClientAuthEndpoint,
): Promise<Client> {
  const secretHash = found?.secretHash ?? null;
  switch (presented.method) {
    case 'client_secret_basic':
    case 'client_secret_post': {
      const matches = secretMatches(presented.secret, secretHash ?? DECOY_HASH);
      if (found && secretHash !== null && matches) return found.client;
      return refuse(deps, org, presented);
    }
    case 'private_key_jwt': {
      if (!found) return refuse(deps, org, presented);
      const outcome = await verifyClientAssertion(deps, org, found.client, presented.assertion, endpoint);
      return outcome.ok ? found.client : refuse(deps, org, presented, outcome.why);
    }
    case 'none':
      if (found && secretHash === null) return found.client;
      return refuse(deps, org, presented);
  }
}

/**
 * Authenticates a client at the token, PAR, revocation and introspection endpoints. A missing
 * client_id is `invalid_request`; unknown client and failed credentials give the same
 * `invalid_client` answer.
 */
export async function authenticateClient(
  deps: Pick<TokensDeps, 'store' | 'config' | 'clientMetadata' | 'clientKeySets'>,
  org: Org,
  presented: PresentedClient,
  endpoint: ClientAuthEndpoint,
): Promise<Client> {
  const clientId = namedClientId(presented);
  if (isUrlClientId(clientId)) {
    // A metadata-document client (DESIGN §13) is public: no credentials, and a document that
    // cannot be read or is invalid now is `invalid_client`.
    const client = await metadataDocumentClient(deps.clientMetadata, org, clientId);
    return checkPresented(deps, org, { client, secretHash: null }, presented, endpoint);
  }
  return checkPresented(
    deps,
    org,
    await findClientWithSecret(deps.store, org.id, clientId),
    presented,
    endpoint,
  );
}

/**
 * The same authentication, for the client_credentials grant: the org's active signing key id is
 * read in the same query (null if the org has none), so issuing a machine token takes one query,
 * or none when `deps.credentials` already holds the row. The credentials are checked on every
 * request either way.
 */
export async function authenticateMachineClient(
  deps: Pick<TokensDeps, 'store' | 'config' | 'credentials' | 'clientKeySets'>,
  org: Org,
  presented: PresentedClient,
): Promise<{ client: Client; activeKid: string | null }> {
  const clientId = namedClientId(presented);
  const read = () => findClientWithActiveKid(deps.store, org.id, clientId);
  const cache = deps.credentials;
  // A NUL cannot occur in an org id, so the key is unambiguous.
  const found: MachineClient | null = cache ? await cache.get(`${org.id}\0${clientId}`, read) : await read();
  const client = await checkPresented(deps, org, found, presented, '/oauth/token');
  return { client, activeKid: found?.activeKid ?? null };
}

/**
 * Authentication at the token endpoint for a grant that signs right after it (refresh_token):
 * as authenticateMachineClient, the client with the org's active key id in one lookup (none on a
 * cache hit) instead of one query each. A metadata-document client (a URL id) is fetched as
 * authenticateClient does, and its key is left to the key ring (`activeKid` undefined).
 */
export async function authenticateSigningClient(
  deps: Pick<TokensDeps, 'store' | 'config' | 'credentials' | 'clientMetadata' | 'clientKeySets'>,
  org: Org,
  presented: PresentedClient,
): Promise<{ client: Client; activeKid: string | null | undefined }> {
  if (isUrlClientId(namedClientId(presented))) {
    return { client: await authenticateClient(deps, org, presented, '/oauth/token'), activeKid: undefined };
  }
  return authenticateMachineClient(deps, org, presented);
}
