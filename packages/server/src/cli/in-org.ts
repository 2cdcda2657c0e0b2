import type { Deps } from '../domain/context.js';
import { requireOrg } from '../domain/directory/index.js';
import { type Actor, type Org, SYSTEM } from '../domain/types.js';
import { admin } from './admin.js';
import { required } from './args.js';
import type { Launch } from './lifecycle.js';

/** An admin command's work on the organization `slug` names (a slug, an `org_…` id or `console`). */
export const inOrg = (slug: string, work: (deps: Deps, org: Org) => Promise<object>): Launch =>
  admin(async (deps) => work(deps, await requireOrg(deps.store, slug)));

/** The flags of a command on one thing of an organization: `--org S --id ID`. */
type OrgItemFlags = { org?: string | undefined; id?: string | undefined };

/** How a command prints one thing of the organization (some show it with links of the org's issuer). */
type Shown<T> = (item: T, deps: Deps, org: Org) => object;

/**
 * A `… list --org S` command: prints `{"data":[…]}`, the organization's things as `list` reads
 * them, each as `shown` shows it.
 */
export const listing =
  <T>(list: (deps: Deps, org: Org) => Promise<readonly T[]>, shown: Shown<T>) =>
  (f: { org?: string | undefined }): Launch =>
    inOrg(required(f.org, 'org'), async (deps, org) => ({
      data: (await list(deps, org)).map((item) => shown(item, deps, org)),
    }));

/** A `… show --org S --id ID` command: prints the organization's thing `get` finds, as `shown` shows it. */
export const showing =
  <T>(get: (deps: Deps, org: Org, id: string) => Promise<T>, shown: Shown<T>) =>
  (f: OrgItemFlags): Launch => {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    return inOrg(slug, async (deps, org) => shown(await get(deps, org, id), deps, org));
  };

/**
 * A `… delete --org S --id ID` command: `remove` deletes the organization's thing as the system,
 * and the command prints `{"deleted": id}`.
 */
export const deletion =
  (remove: (deps: Deps, org: Org, id: string, actor: Actor) => Promise<void>) =>
  (f: OrgItemFlags): Launch => {
    const [slug, id] = [required(f.org, 'org'), required(f.id, 'id')];
    return inOrg(slug, async (deps, org) => {
      await remove(deps, org, id, SYSTEM);
      return { deleted: id };
    });
  };
