import type { Config } from '../config/config.js';
import type { Sealer } from '../crypto/sealing.js';
import type { Db, Dialect } from '../storage/db.js';
import type { MachineClientRow } from '../storage/repos/clients.js';
import type { CredentialCache } from './tokens/credential-cache.js';
import type { KeyRing } from './keys/keys.js';

/** What domain operations need: the database, the at-rest sealer, configuration, the key ring. */
export interface Deps {
  readonly db: Db;
  readonly dialect: Dialect;
  readonly sealer: Sealer;
  readonly config: Config;
  readonly keyRing: KeyRing;
  /** The client_credentials lookups, kept until a change is committed (`tessera serve` only). */
  readonly credentials?: CredentialCache<MachineClientRow>;
}
