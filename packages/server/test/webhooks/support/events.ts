import type { Deps } from '../../../src/domain/context.js';
import { createOrg } from '../../../src/domain/directory/orgs.js';
import { createTenant } from '../../../src/domain/directory/tenants.js';
import { insertUserWithTenant, prepareUser } from '../../../src/domain/directory/users.js';
import { createWebhook } from '../../../src/domain/directory/webhooks.js';
import { type Org, SYSTEM } from '../../../src/domain/types.js';
import type { Db } from '../../../src/storage/db.js';

export const OWNER_PASSWORD = 'owner password 1';

/** An org owned by `owner@<slug>.test`, with one user of its own (no password: nothing slow to hash). */
export async function orgWithUser(deps: Deps, slug: string): Promise<{ org: Org; userId: string }> {
  const { org } = await createOrg(deps, {
    slug,
    ownerEmail: `owner@${slug}.test`,
    ownerPassword: OWNER_PASSWORD,
  });
  const prepared = await prepareUser({ email: `user@${slug}.test`, password: null });
  const { user } = await deps.unitOfWork.run((trx) => insertUserWithTenant(trx, org.id, prepared, SYSTEM));
  return { org, userId: user.id };
}

export async function subscribe(deps: Deps, org: Org, url: string, events: string[]) {
  return createWebhook(deps, org, { url, events }, SYSTEM);
}

/** `n` audited changes (`tenant.created`), `parallel` at a time; resolves with nothing (read the ids from the log). */
export async function createTenants(
  deps: Deps,
  org: Org,
  userId: string,
  n: number,
  options: { parallel?: number; onEach?: (done: number) => void | Promise<void> } = {},
) {
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      await createTenant(deps, org, userId, `Tenant ${i}`);
      done++;
      await options.onEach?.(done);
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? 1 }, lane));
}

/** The ids of the org's audit entries with this key, oldest first. */
export async function eventIds(db: Db, orgId: string, key: string): Promise<string[]> {
  const rows = await db
    .selectFrom('audit_events')
    .select('id')
    .where('org_id', '=', orgId)
    .where('key', '=', key)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
