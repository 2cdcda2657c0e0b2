import { secretMatches, sha256 } from '../../crypto/random.js';
import type { Db } from '../../storage/db.js';
import {
  findClientWithActiveKid,
  findClientWithSecret,
  type MachineClientRow,
} from '../../storage/repos/clients.js';
import type { Deps } from '../context.js';
import { isUrlClientId, metadataDocumentClient } from '../directory/client-metadata-documents.js';
import { fail } from '../errors.js';
import type { Client, Org } from '../types.js';
import type { CredentialCache } from './credential-cache.js';

// Compared against when the client is unknown, so both failures take the same time.
const DECOY_HASH = sha256('decoy client secret');

const INVALID = 'client authentication failed';

/** The client_id a request names; a request without one is `invalid_request`. */
const requiredClientId = (clientId: string | undefined): string =>
  clientId ?? fail('invalid_request', 'client_id is required');

/**
 * Authenticates a client at the token and revocation endpoints. A missing client_id is
 * `invalid_request`; unknown client and wrong secret give the same `invalid_client` answer; a
 * public client presents no secret.
 */
export async function authenticateClient(
  deps: Pick<Deps, 'db' | 'clientMetadata'>,
  org: Org,
  clientIdSent: string | undefined,
  secret: string | undefined,
): Promise<Client> {
  const clientId = requiredClientId(clientIdSent);
  if (isUrlClientId(clientId)) {
    // A metadata-document client (DESIGN §13) is public: no secret, and a document that cannot be
    // read or is invalid now is `invalid_client`.
    const client = await metadataDocumentClient(deps.clientMetadata, org, clientId);
    return checkSecret({ client, secretHash: null }, secret);
  }
  return checkSecret(await findClientWithSecret(deps.db, org.id, clientId), secret);
}

/**
 * The same authentication, for the client_credentials grant: the org's active signing key id is
 * read in the same query (null if the org has none), so issuing a machine token takes one query,
 * or none when `cache` (PostgreSQL) already holds the row. The secret is checked on every request
 * either way.
 */
export async function authenticateMachineClient(
  db: Db,
  orgId: string,
  clientIdSent: string | undefined,
  secret: string | undefined,
  cache?: CredentialCache<MachineClientRow>,
): Promise<{ client: Client; activeKid: string | null }> {
  const clientId = requiredClientId(clientIdSent);
  const read = () => findClientWithActiveKid(db, orgId, clientId);
  // A NUL cannot occur in an org id, so the key is unambiguous.
  const found = cache ? await cache.get(`${orgId}\0${clientId}`, read) : await read();
  return { client: checkSecret(found, secret), activeKid: found?.activeKid ?? null };
}

function checkSecret(
  found: { client: Client; secretHash: string | null } | null,
  secret: string | undefined,
): Client {
  if (!found || found.secretHash === null) {
    if (secret !== undefined) secretMatches(secret, DECOY_HASH);
    if (!found) return fail('invalid_client', INVALID);
    // A public client must not present a secret; it authenticates by possession of the code/refresh token.
    if (secret !== undefined) return fail('invalid_client', INVALID);
    return found.client;
  }
  if (secret === undefined || !secretMatches(secret, found.secretHash))
    return fail('invalid_client', INVALID);
  return found.client;
}
