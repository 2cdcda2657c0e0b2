import type { Config } from '../config/config.js';
import type { PageKeys } from '../crypto/derived-keys.js';
import type { Sealer } from '../crypto/sealing.js';
import type { Db, Dialect } from '../storage/db.js';
import type { MachineClientRow } from '../storage/repos/clients.js';
import type { CredentialCache } from './credential-cache.js';
import type { ClientKeySets } from './directory/client-key-sets.js';
import type { ClientMetadataDocuments } from './directory/client-metadata-documents.js';
import type { KeyRing } from './keys/keys.js';
import type { Mailer } from './mail/mailer.js';
import type { Org } from './types.js';

/**
 * What domain operations need: the database, the at-rest sealer, the hosted pages' keys,
 * configuration, the key ring.
 */
export interface Deps {
  readonly db: Db;
  readonly dialect: Dialect;
  readonly sealer: Sealer;
  /** The cookie-signing and CSRF keys of the hosted pages, derived once from the master secret. */
  readonly pageKeys: PageKeys;
  readonly config: Config;
  readonly keyRing: KeyRing;
  /** Where reset and verification mails go: SMTP, the development log, or nowhere (src/mail/). */
  readonly mailer: Mailer;
  /** The client_credentials lookups, kept until a change is committed (`tessera serve` only). */
  readonly credentials?: CredentialCache<MachineClientRow>;
  /** The token endpoint's orgs by slug, kept by the same rule (directory/org-cache.ts; `tessera serve` only). */
  readonly orgs?: CredentialCache<Org>;
  /** Clients known by their metadata document URL, fetched and kept per process (`tessera serve` only). */
  readonly clientMetadata?: ClientMetadataDocuments;
  /** Clients' public keys published at a `jwks_uri`, fetched and kept briefly per process (`tessera serve` only). */
  readonly clientKeySets?: ClientKeySets;
}
