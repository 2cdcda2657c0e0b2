import {
  addTenantMember,
  countMembersOnlyIn,
  findUserTenant,
  listUserTenants,
  type TenantMembership,
} from '../../storage/repos/tenant-members.js';
import {
  deleteTenant as deleteTenantRow,
  insertTenant,
  updateTenant as updateTenantRow,
} from '../../storage/repos/tenants.js';
import { recordAudit } from '../audit/audit.js';
import { tenantSnapshot } from '../audit/snapshots.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { newResourceId } from '../identifiers.js';
import type { Org, Tenant } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import { isHttpsOrLoopbackHttp } from './redirect-uris.js';
import { checkName } from './validate.js';

/** The Tenant record of the spec's "Client SDK record shapes". */
export const tenantRecord = (m: TenantMembership) => ({
  id: m.tenant.id,
  name: m.tenant.name,
  role: m.role,
  logo: m.tenant.logo,
});

/** `tenant.updated|deleted`, also of the tenants a deleted user leaves empty (users.ts). */
export const tenantAudit = auditTrail('tenant', tenantSnapshot);

export async function listTenants(deps: DirectoryDeps, userId: string) {
  return (await listUserTenants(deps.store, userId)).map(tenantRecord);
}

/** A logo is an https URL (http on loopback, for development), or null to remove it. */
export function checkLogo(logo: string | null): string | null {
  if (logo === null) return null;
  let url: URL;
  try {
    url = new URL(logo);
  } catch {
    return fail('tenant.logo.invalid', 'logo must be an absolute https URL or null');
  }
  if (!isHttpsOrLoopbackHttp(url)) fail('tenant.logo.invalid', 'logo must be an absolute https URL or null');
  if (logo.length > 2048) fail('tenant.logo.too_long', 'logo must be at most 2048 characters');
  return logo;
}

export async function createTenant(deps: DirectoryDeps, org: Org, userId: string, name: string) {
  const now = clock.now();
  const tenant: Tenant = {
    id: newResourceId('tenant'),
    orgId: org.id,
    name: checkName('name', name),
    logo: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.unitOfWork.run(async (tx) => {
    await insertTenant(tx, tenant);
    await addTenantMember(tx, tenant.id, userId, 'owner', now);
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'tenant',
      verb: 'created',
      actor: { kind: 'user', id: userId },
      at: now,
      data: { ...tenantSnapshot(tenant), ownerId: userId },
    });
  });
  return tenantRecord({ tenant, role: 'owner' });
}

/** Non-members get 404 (they may not learn the tenant exists); members who are not owners get 403. */
async function ownedTenant(deps: DirectoryDeps, org: Org, userId: string, tenantId: string) {
  const membership = await findUserTenant(deps.store, userId, tenantId);
  if (!membership || membership.tenant.orgId !== org.id) return fail('tenant.not_found', 'no such tenant');
  if (membership.role !== 'owner') fail('tenant.owner_required', 'only an owner of the tenant may do this');
  return membership;
}

export async function updateTenant(
  deps: DirectoryDeps,
  org: Org,
  userId: string,
  tenantId: string,
  input: { name?: string; logo?: string | null },
) {
  const membership = await ownedTenant(deps, org, userId, tenantId);
  const before = membership.tenant;
  const after: Tenant = {
    ...before,
    name: input.name === undefined ? before.name : checkName('name', input.name),
    logo: input.logo === undefined ? before.logo : checkLogo(input.logo),
  };
  if (after.name === before.name && after.logo === before.logo) return tenantRecord(membership);
  after.updatedAt = clock.now();
  await deps.unitOfWork.run(async (tx) => {
    await updateTenantRow(tx, after);
    await tenantAudit.updated(
      tx,
      { orgId: org.id, actor: { kind: 'user', id: userId }, at: after.updatedAt },
      before,
      after,
    );
  });
  return tenantRecord({ tenant: after, role: membership.role });
}

/** Every user keeps at least one tenant (DESIGN §5): the caller's last one cannot go, nor anyone else's. */
export async function deleteTenant(
  deps: DirectoryDeps,
  org: Org,
  userId: string,
  tenantId: string,
): Promise<void> {
  const { tenant } = await ownedTenant(deps, org, userId, tenantId);
  await deps.unitOfWork.run(async (tx) => {
    if ((await listUserTenants(tx, userId)).length <= 1)
      fail('tenant.delete.last', 'you cannot delete your last tenant');
    if ((await countMembersOnlyIn(tx, tenantId)) > 0) {
      fail('tenant.delete.strands_member', 'a member of this tenant belongs to no other tenant');
    }
    await deleteTenantRow(tx, tenantId);
    await tenantAudit.deleted(
      tx,
      { orgId: org.id, actor: { kind: 'user', id: userId }, at: clock.now() },
      tenant,
    );
  });
}
