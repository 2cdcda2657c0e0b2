import type { Config } from '../config/config.js';
import type { Sealer } from '../crypto/sealing.js';
import type { Db, Dialect } from '../storage/db.js';

/**
 * What every feature of the domain may use: the database, the at-rest sealer, the settings. Each
 * feature's own deps.ts adds the services it (and the features above it) need, in the features'
 * order (docs/architecture.md); the whole bag is domain/context.ts's Deps, built by the runtime.
 */
export interface CoreDeps {
  readonly db: Db;
  readonly dialect: Dialect;
  readonly sealer: Sealer;
  readonly config: Config;
}
