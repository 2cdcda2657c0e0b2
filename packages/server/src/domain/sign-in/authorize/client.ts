import { findClientWithActiveKid } from '../../../storage/repos/clients.js';
import { isUrlClientId, metadataDocumentClient } from '../../directory/client-metadata-documents.js';
import { fail, ServiceError } from '../../errors.js';
import { mayUseGrant } from '../../tokens/client-grants.js';
import type { Client, Org } from '../../types.js';
import type { SignInDeps } from '../deps.js';

/**
 * The client a sign-in names: a registered one by its id, or — on the console issuer — one known by
 * its metadata document URL (DESIGN §13). Unknown, or a document that cannot be used, is `invalid_client`.
 */
export async function signInClient(deps: SignInDeps, org: Org, clientId: string): Promise<Client> {
  if (isUrlClientId(clientId)) return metadataDocumentClient(deps.clientMetadata, org, clientId);
  // The token endpoint's client lookup (client-auth.ts), from its change-notified cache when the
  // runtime keeps one: a sign-in's pages name the client three times, its code exchange once more.
  const read = () => findClientWithActiveKid(deps.store, org.id, clientId);
  const cache = deps.credentials;
  const found = cache ? await cache.get(`${org.id}\0${clientId}`, read) : await read();
  return found?.client ?? fail('authorize.client.unknown', 'this application is not known here');
}

/** signInClient, with null for a client that is unknown or whose metadata document cannot be used. */
export async function findSignInClient(deps: SignInDeps, org: Org, clientId: string): Promise<Client | null> {
  return signInClient(deps, org, clientId).catch((error: unknown) => {
    if (error instanceof ServiceError && error.code === 'invalid_client') return null;
    throw error;
  });
}

/** Whether codes may be issued to `client` at all: its grants include the code flow. */
export const usesCodeFlow = (client: Client): boolean => mayUseGrant(client, 'authorization_code');
