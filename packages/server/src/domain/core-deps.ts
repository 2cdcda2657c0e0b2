import type { Config } from '../config/config.js';
import type { Sealer } from '../crypto/sealing.js';
import type { Handle, UnitOfWork } from '../storage/handle.js';

/**
 * What every feature of the domain may use: the store and its unit of work, the at-rest sealer,
 * the settings. Each feature's own deps.ts adds the services it (and the features above it) need,
 * in the features' order (docs/architecture.md); the whole bag is domain/context.ts's Deps, built
 * by the runtime.
 */
export interface CoreDeps {
  /**
   * The database as the domain holds it: handed to repositories, each call a statement of its own
   * (reads, single writes). It cannot be queried or opened here (storage/handle.ts).
   */
  readonly store: Handle;
  /** Groups writes into one transaction: `unitOfWork.run(async (tx) => …)`, `tx` handed to repositories. */
  readonly unitOfWork: UnitOfWork;
  readonly sealer: Sealer;
  readonly config: Config;
}
