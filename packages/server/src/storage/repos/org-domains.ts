import { newId } from '../../crypto/random.js';
import type { FormerIssuer, Org, OrgDomain } from '../../domain/types.js';
import { isUniqueViolation } from '../errors.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { OrgDomainsTable } from '../schema.js';
import { orgRowById, orgRowsOldestFirst } from './org-rows.js';
import { findOrgById } from './orgs.js';

const toOrgDomain = (r: OrgDomainsTable): OrgDomain => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  token: r.token,
  verifiedAt: r.verified_at === null ? null : Number(r.verified_at),
  createdAt: Number(r.created_at),
});

/** Adds a domain to an org; false when the org already has this name (the unique index decides). */
export async function insertOrgDomain(store: Handle, d: OrgDomain): Promise<boolean> {
  try {
    await opened(store)
      .insertInto('org_domains')
      .values({
        id: d.id,
        org_id: d.orgId,
        name: d.name,
        token: d.token,
        verified_name: null,
        verified_at: null,
        created_at: d.createdAt,
      })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function findOrgDomain(store: Handle, orgId: string, id: string): Promise<OrgDomain | null> {
  const row = await orgRowById(
    opened(store).selectFrom('org_domains').selectAll(),
    orgId,
    id,
  ).executeTakeFirst();
  return row ? toOrgDomain(row) : null;
}

/** The org's domains, oldest first (an org has a handful: not paged). */
export async function listOrgDomains(store: Handle, orgId: string): Promise<OrgDomain[]> {
  const rows = await orgRowsOldestFirst(opened(store).selectFrom('org_domains').selectAll(), orgId).execute();
  return rows.map(toOrgDomain);
}

/** Whether some org has verified `name`. */
export async function isDomainVerified(store: Handle, name: string): Promise<boolean> {
  const row = await opened(store)
    .selectFrom('org_domains')
    .select('id')
    .where('verified_name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Marks the domain verified. The unique index on `verified_name` lets one org only hold a name:
 * of two verifying at once, one insert of the name wins and the other throws a unique violation
 * (false here; on PostgreSQL it aborted the transaction, which the caller must then end by throwing).
 */
export async function markOrgDomainVerified(store: Handle, d: OrgDomain, at: number): Promise<boolean> {
  try {
    await orgRowById(
      opened(store).updateTable('org_domains').set({ verified_name: d.name, verified_at: at }),
      d.orgId,
      d.id,
    ).execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function deleteOrgDomainRow(store: Handle, orgId: string, id: string): Promise<boolean> {
  const result = await orgRowById(opened(store).deleteFrom('org_domains'), orgId, id).executeTakeFirst();
  return result.numDeletedRows === 1n;
}

const toFormer = (r: { domain: string | null; moved_at: number; serves_until: number }): FormerIssuer => ({
  domain: r.domain,
  movedAt: Number(r.moved_at),
  servesUntil: Number(r.serves_until),
});

/** The hosts the org's issuer moved away from, newest move first (expired ones included). */
export async function listFormerIssuers(store: Handle, orgId: string): Promise<FormerIssuer[]> {
  const rows = await opened(store)
    .selectFrom('org_former_issuers')
    .select(['domain', 'moved_at', 'serves_until'])
    .where('org_id', '=', orgId)
    .orderBy('moved_at', 'desc')
    .execute();
  return rows.map(toFormer);
}

/** The org a former issuer's custom domain still serves for at `now`, or null. */
export async function findFormerIssuerOrg(
  store: Handle,
  domain: string,
  now: number,
): Promise<{ org: Org; former: FormerIssuer } | null> {
  const row = await opened(store)
    .selectFrom('org_former_issuers')
    .select(['org_id', 'domain', 'moved_at', 'serves_until'])
    .where('domain', '=', domain)
    .where('serves_until', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  const org = await findOrgById(store, row.org_id);
  return org ? { org, former: toFormer(row) } : null;
}

/**
 * Records that the org's issuer left `domain` (null: its host under Tessera) at `movedAt` and serves
 * there until `servesUntil`; the host it moves to is no former issuer any more. One row per host.
 */
export async function recordIssuerMove(
  store: Handle,
  orgId: string,
  from: string | null,
  to: string | null,
  movedAt: number,
  servesUntil: number,
): Promise<void> {
  const db = opened(store);
  for (const host of [from, to]) {
    const q = db.deleteFrom('org_former_issuers').where('org_id', '=', orgId);
    await (host === null ? q.where('domain', 'is', null) : q.where('domain', '=', host)).execute();
  }
  await db
    .insertInto('org_former_issuers')
    .values({ id: newId('fis'), org_id: orgId, domain: from, moved_at: movedAt, serves_until: servesUntil })
    .execute();
}

/** Forgets a former issuer's custom domain (its domain was deleted): it serves nothing from now on. */
export async function forgetFormerIssuer(store: Handle, orgId: string, domain: string): Promise<void> {
  await opened(store)
    .deleteFrom('org_former_issuers')
    .where('org_id', '=', orgId)
    .where('domain', '=', domain)
    .execute();
}
