import { findRequireMfa, setRequireMfa } from '../../storage/repos/second-factors.js';
import { recordAudit } from '../audit/audit.js';
import type { Deps } from '../context.js';
import { orgSnapshot } from '../audit/snapshots.js';
import type { Actor, Org } from '../types.js';

/**
 * Makes the second factor required (or optional again) for every user of the org, audited as
 * `organization.updated` with `requireMfa` in the snapshots. Users without one are sent to enrol
 * at their next sign-in; browser sessions signed in with a password alone stop counting.
 */
export async function setOrgRequireMfa(deps: Deps, org: Org, value: boolean, actor: Actor) {
  const now = Date.now();
  await deps.db.transaction().execute(async (trx) => {
    const before = await findRequireMfa(trx, org.id);
    if (before === value) return;
    await setRequireMfa(trx, org.id, value, now);
    await recordAudit(trx, {
      orgId: org.id,
      entity: 'organization',
      verb: 'updated',
      actor,
      at: now,
      data: { ...orgSnapshot(org), requireMfa: value },
      previous: { ...orgSnapshot(org), requireMfa: before },
    });
  });
  return { id: org.id, slug: org.slug, requireMfa: value };
}
