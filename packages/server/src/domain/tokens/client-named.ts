import { findClient } from '../../storage/repos/clients.js';
import { isUrlClientId, metadataDocumentsOpen } from '../directory/client-metadata-documents.js';
import type { Client, Org } from '../types.js';
import type { TokensDeps } from './deps.js';

/**
 * The client an id names on `org`: a registered one, or a metadata document's (DESIGN §13) while
 * the org accepts them; null when it is unknown, gone, or its document cannot be used now.
 */
export async function clientNamed(
  deps: Pick<TokensDeps, 'store' | 'clientMetadata'>,
  org: Org,
  clientId: string,
): Promise<Client | null> {
  if (!isUrlClientId(clientId)) return findClient(deps.store, org.id, clientId);
  if (!metadataDocumentsOpen(org) || deps.clientMetadata === undefined) return null;
  const found = await deps.clientMetadata.lookup(org, clientId);
  return 'client' in found ? found.client : null;
}
