import { isSchemaCurrent } from '../storage/migrate.js';
import type { CoreDeps } from './core-deps.js';

export type Readiness = 'ready' | 'unavailable' | 'not_migrated';

/** Whether this node can serve requests that need the database (DESIGN §11's `/readyz`). */
export async function readiness(deps: CoreDeps): Promise<Readiness> {
  try {
    return (await isSchemaCurrent(deps.store)) ? 'ready' : 'not_migrated';
  } catch {
    // Unreachable, or no migration table at all: either way not ready.
    return 'unavailable';
  }
}
