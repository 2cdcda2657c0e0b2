import type { StoredBranding } from '../../storage/repos/brandings.js';
import type { CredentialCache } from '../credential-cache.js';
import type { KeysDeps } from '../keys/deps.js';
import type { Org } from '../types.js';
import type { ClientKeySets } from './client-key-sets.js';
import type { ClientMetadataDocuments } from './client-metadata-documents.js';

/**
 * What domain/directory/ needs from the runtime: what the features below it need and its own
 * services. Its functions take this (or less); a caller holding more passes it as is.
 */
export interface DirectoryDeps extends KeysDeps {
  /** The token endpoint's orgs by slug, kept by the credentials' rule (org-cache.ts; `tessera serve` only). */
  readonly orgs?: CredentialCache<Org>;
  /**
   * Each org's own words per language (`${orgId}\0${locale}`, key → message), which every hosted
   * page reads, kept by the same rule (migration 060 announces `org_texts` changes).
   */
  readonly orgTexts?: CredentialCache<ReadonlyMap<string, string>>;
  /** Each org's brands (its own and its clients'), which every hosted page reads, kept by the same rule. */
  readonly brandings?: CredentialCache<readonly StoredBranding[]>;
  /** Clients known by their metadata document URL, fetched and kept per process (`tessera serve` only). */
  readonly clientMetadata?: ClientMetadataDocuments;
  /** Clients' public keys published at a `jwks_uri`, fetched and kept briefly per process (`tessera serve` only). */
  readonly clientKeySets?: ClientKeySets;
}
