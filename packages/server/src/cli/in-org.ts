import type { Deps } from '../domain/context.js';
import { requireOrg } from '../domain/directory/index.js';
import { type Actor, type Org, SYSTEM } from '../domain/types.js';
import { admin } from './admin.js';
import { required } from './args.js';
import type { Launch } from './lifecycle.js';

/** An admin command's work on the organization `slug` names (a slug, an `org_…` id or `console`). */
export const inOrg = (slug: string, work: (deps: Deps, org: Org) => Promise<object>): Launch =>
  admin(async (deps) => work(deps, await requireOrg(deps.store, slug)));

/**
 * A `… delete --org S --id ID` command: `remove` deletes the organization's thing as the system,
 * and the command prints `{"deleted": id}`.
 */
export const deletion =
  (remove: (deps: Deps, org: Org, id: string, actor: Actor) => Promise<void>) =>
  (f: { org?: string | undefined; id?: string | undefined }): Launch => {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    return inOrg(slug, async (deps, org) => {
      await remove(deps, org, id, SYSTEM);
      return { deleted: id };
    });
  };
