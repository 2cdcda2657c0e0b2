import { findOrgById, lockOrg, updateOrgName } from '../../storage/repos/orgs.js';
import { findRequireMfa, setRequireMfa } from '../../storage/repos/second-factors.js';
import { recordAudit } from '../audit/audit.js';
import { orgSnapshot } from '../audit/snapshots.js';
import { clock } from '../clock.js';
import type { Deps } from '../context.js';
import { fail } from '../errors.js';
import type { Actor, Org } from '../types.js';
import { issuerOf } from './issuers.js';
import { checkName } from './validate.js';

/** What an org's settings page shows and changes. */
export interface OrgSettings {
  id: string;
  slug: string;
  name: string;
  issuer: string;
  requireMfa: boolean;
}

export interface SettingsChange {
  name?: string;
  requireMfa?: boolean;
}

const settingsOf = (deps: Deps, org: Org, requireMfa: boolean): OrgSettings => ({
  id: org.id,
  slug: org.slug,
  name: org.name,
  issuer: issuerOf(deps.config, org),
  requireMfa,
});

/** GET /organizations/{org}/settings. */
export async function orgSettings(deps: Deps, org: Org): Promise<OrgSettings> {
  return settingsOf(deps, org, await findRequireMfa(deps.db, org.id));
}

/**
 * `tessera org update` and PATCH /organizations/{org}/settings: renames the org and/or makes the
 * second factor required (or optional again) for every user of the org, audited as one
 * `organization.updated` entry whose snapshots hold `requireMfa` too. Nothing changed, no entry.
 * Once the factor is required, users without one are sent to enrol at their next sign-in, and
 * browser sessions signed in with a password alone stop counting.
 */
export async function updateOrgSettings(
  deps: Deps,
  org: Org,
  change: SettingsChange,
  actor: Actor,
): Promise<OrgSettings> {
  const name = change.name === undefined ? undefined : checkName('name', change.name);
  return deps.db.transaction().execute(async (trx) => {
    await lockOrg(trx, deps.dialect, org.id);
    const current = (await findOrgById(trx, org.id)) ?? fail('not_found', 'no such organization');
    const before = await findRequireMfa(trx, org.id);
    const now = clock.now();
    const after: Org =
      name === undefined || name === current.name ? current : { ...current, name, updatedAt: now };
    const requireMfa = change.requireMfa ?? before;
    if (after === current && requireMfa === before) return settingsOf(deps, current, before);
    if (after !== current) await updateOrgName(trx, org.id, after.name, now);
    if (requireMfa !== before) await setRequireMfa(trx, org.id, requireMfa, now);
    await recordAudit(trx, {
      orgId: org.id,
      entity: 'organization',
      verb: 'updated',
      actor,
      at: now,
      data: { ...orgSnapshot(after), requireMfa },
      previous: { ...orgSnapshot(current), requireMfa: before },
    });
    return settingsOf(deps, after, requireMfa);
  });
}
