import type { Db } from '../../storage/db.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { pageOrgsOfUser } from '../../storage/repos/memberships.js';
import { findConsoleOrg, findOrgById, findOrgBySlug, insertOrg } from '../../storage/repos/orgs.js';
import { recordAudit } from '../audit/audit.js';
import { orgSnapshot } from '../audit/snapshots.js';
import { clock } from '../clock.js';
import type { Deps } from '../context.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { createOrgKeys } from '../keys/keys.js';
import { type Actor, type Org, type Role, SYSTEM, type User } from '../types.js';
import { issuerOf } from './issuers.js';
import { addMember, consoleUserById, prepareConsoleUser } from './members.js';
import { checkName, checkSlug } from './validate.js';

export const CONSOLE_SLUG = 'console';

/** The org named by a CLI `--org` or an API path: `console`, a slug, or an `org_` id. */
export async function findOrg(db: Db, ref: string): Promise<Org | null> {
  if (ref === CONSOLE_SLUG) return findConsoleOrg(db);
  return isIdOf('org', ref) ? findOrgById(db, ref) : findOrgBySlug(db, ref);
}

export async function requireOrg(db: Db, ref: string): Promise<Org> {
  return (await findOrg(db, ref)) ?? fail('not_found', `no organization "${ref}"`);
}

/** The console org exists from the first start on; creating it is idempotent. */
export async function ensureConsoleOrg(deps: Deps): Promise<Org> {
  const existing = await findConsoleOrg(deps.db);
  if (existing) return existing;
  const now = clock.now();
  const org: Org = {
    id: newResourceId('org'),
    slug: CONSOLE_SLUG,
    name: 'Tessera console',
    isConsole: true,
    allowSignup: false,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.db.transaction().execute(async (trx) => {
      await insertOrg(trx, org);
      await createOrgKeys(trx, deps.sealer, org.id, now);
      await recordAudit(trx, {
        orgId: org.id,
        entity: 'organization',
        verb: 'created',
        actor: SYSTEM,
        data: orgSnapshot(org),
      });
    });
  } catch (error) {
    // Another process created it first.
    if (!isUniqueViolation(error)) throw error;
  }
  return (await findConsoleOrg(deps.db)) ?? fail('server_error', 'the console org could not be created');
}

/**
 * A new org and who owns it: a console user by email (`tessera org create`; created when new,
 * then with the password), or by id (the console user who asks through the API).
 */
export type NewOrg = { slug: string; name?: string | null } & (
  | { ownerEmail: string; ownerPassword: string | null }
  | { ownerId: string }
);

/**
 * `tessera org create` and POST /organizations: an org with its signing keys and its first
 * owner, audited as `organization.created` and `membership.created` in the new org. The name
 * defaults to the slug; a slug in use is 409 conflict.
 */
export async function createOrg(
  deps: Deps,
  input: NewOrg,
  actor: Actor = SYSTEM,
): Promise<{ org: Org; issuer: string; owner: User }> {
  const slug = checkSlug(input.slug);
  const name = input.name ? checkName('name', input.name) : slug;
  await ensureConsoleOrg(deps);
  const owner =
    'ownerId' in input
      ? ((await consoleUserById(deps.db, input.ownerId)) ?? fail('not_found', 'no such console user'))
      : await prepareConsoleUser(deps.db, { email: input.ownerEmail, password: input.ownerPassword });
  const now = clock.now();
  const org: Org = {
    id: newResourceId('org'),
    slug,
    name,
    isConsole: false,
    allowSignup: true,
    createdAt: now,
    updatedAt: now,
  };
  try {
    const user = await deps.db.transaction().execute(async (trx) => {
      if (await findOrgBySlug(trx, slug)) fail('conflict', `an organization with slug "${slug}" exists`);
      await insertOrg(trx, org);
      await createOrgKeys(trx, deps.sealer, org.id, now);
      await recordAudit(trx, {
        orgId: org.id,
        entity: 'organization',
        verb: 'created',
        actor,
        at: now,
        data: orgSnapshot(org),
      });
      return addMember(trx, org, owner, 'owner', actor);
    });
    return { org, issuer: issuerOf(deps.config, org), owner: user };
  } catch (error) {
    if (isUniqueViolation(error)) fail('conflict', `an organization with slug "${slug}" exists`);
    throw error;
  }
}

/** An org as its member sees it in their list. */
export interface OrgOfUser {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

/** GET /organizations: one page of the orgs the console user is a member of, by slug. */
export async function listOrgsOfUser(
  deps: Deps,
  consoleUserId: string,
  page: { page: number; perPage: number },
): Promise<{ entries: OrgOfUser[]; total: number }> {
  const { rows, total } = await pageOrgsOfUser(deps.db, consoleUserId, {
    offset: page.page * page.perPage,
    limit: page.perPage,
  });
  return { entries: rows, total };
}
