import { isUniqueViolation } from '../../storage/errors.js';
import type { Handle } from '../../storage/handle.js';
import { pageOrgsOfUser } from '../../storage/repos/memberships.js';
import { findConsoleOrg, findOrgById, findOrgBySlug, insertOrg } from '../../storage/repos/orgs.js';
import { takeSlot } from '../../storage/repos/rate-limits.js';
import { orgSnapshot } from '../audit/snapshots.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { fail, RateLimitedError } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { issuerOf } from '../issuers.js';
import { createOrgKeys, freshKeys, NEW_ORG_KEYS } from '../keys/keys.js';
import { type PageAsked, windowOf } from '../paging.js';
import { type Actor, type Org, type Role, SYSTEM, type User } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import { addMember, consoleUserById, prepareConsoleUser } from './members.js';
import { checkName, checkSlug } from './validate.js';

export const CONSOLE_SLUG = 'console';

const audit = auditTrail('organization', orgSnapshot);

/** The org named by a CLI `--org` or an API path: `console`, a slug, or an `org_` id. */
export async function findOrg(db: Handle, ref: string): Promise<Org | null> {
  if (ref === CONSOLE_SLUG) return findConsoleOrg(db);
  return isIdOf('org', ref) ? findOrgById(db, ref) : findOrgBySlug(db, ref);
}

export async function requireOrg(db: Handle, ref: string): Promise<Org> {
  return (await findOrg(db, ref)) ?? fail('org.ref.not_found', `no organization "${ref}"`);
}

/** A new org as it starts: its names, who may sign up, and every other setting at its default. */
function newOrgRecord(named: Pick<Org, 'slug' | 'name' | 'isConsole' | 'signUp'>, now: number): Org {
  return {
    id: newResourceId('org'),
    ...named,
    dynamicRegistration: false,
    metadataDocuments: false,
    signUpDomains: [],
    requirePushedRequests: false,
    idTokenSigningAlg: 'RS256',
    defaultLocale: null,
    issuerDomain: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The console org exists from the first start on; creating it is idempotent. */
export async function ensureConsoleOrg(deps: DirectoryDeps): Promise<Org> {
  const existing = await findConsoleOrg(deps.store);
  if (existing) return existing;
  const now = clock.now();
  // The console issuer's registration is the spec's, always on (the org's two settings stay off).
  const org = newOrgRecord(
    { slug: CONSOLE_SLUG, name: 'Tessera console', isConsole: true, signUp: 'invite_only' },
    now,
  );
  const fresh = await freshKeys(deps.sealer, NEW_ORG_KEYS);
  try {
    await deps.unitOfWork.run(async (tx) => {
      await insertOrg(tx, org);
      await createOrgKeys(tx, org.id, fresh, now);
      await audit.created(tx, { orgId: org.id, actor: SYSTEM }, org);
    });
  } catch (error) {
    // Another process created it first.
    if (!isUniqueViolation(error)) throw error;
  }
  return (
    (await findConsoleOrg(deps.store)) ??
    fail('console.org.create_failed', 'the console org could not be created')
  );
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
 * How many orgs one console user may create through POST /organizations per window: enough for
 * anyone setting up by hand, and a bound on the key generations one account can ask for.
 * `tessera org create` (an operator on the host) is not limited.
 */
export const ORG_CREATIONS_PER_USER = 10;
export const ORG_CREATION_WINDOW_MS = 3_600_000;

/**
 * `tessera org create` and POST /organizations: an org with its signing keys and its first
 * owner, audited as `organization.created` and `membership.created` in the new org. The name
 * defaults to the slug; a slug in use is 409 conflict. A console user creating one (`ownerId`)
 * takes one of their ORG_CREATIONS_PER_USER slots first, or is refused with rate_limited. The
 * keys are generated before the transaction (freshKeys), after every check that can refuse.
 */
export async function createOrg(
  deps: DirectoryDeps,
  input: NewOrg,
  actor: Actor = SYSTEM,
): Promise<{ org: Org; issuer: string; owner: User }> {
  const slug = checkSlug(input.slug);
  const name = input.name ? checkName('name', input.name) : slug;
  await ensureConsoleOrg(deps);
  const owner =
    'ownerId' in input
      ? ((await consoleUserById(deps.store, input.ownerId)) ??
        fail('org.owner.not_found', 'no such console user'))
      : await prepareConsoleUser(deps.store, { email: input.ownerEmail, password: input.ownerPassword });
  if (await findOrgBySlug(deps.store, slug))
    fail('org.slug.taken', `an organization with slug "${slug}" exists`);
  if ('ownerId' in input) await takeCreationSlot(deps, input.ownerId);
  const fresh = await freshKeys(deps.sealer, NEW_ORG_KEYS);
  const now = clock.now();
  const org = newOrgRecord({ slug, name, isConsole: false, signUp: 'open' }, now);
  try {
    const user = await deps.unitOfWork.run(async (tx) => {
      if (await findOrgBySlug(tx, slug)) fail('org.slug.taken', `an organization with slug "${slug}" exists`);
      await insertOrg(tx, org);
      await createOrgKeys(tx, org.id, fresh, now);
      await audit.created(tx, { orgId: org.id, actor, at: now }, org);
      return addMember(tx, org, owner, 'owner', actor);
    });
    return { org, issuer: issuerOf(deps.config, org), owner: user };
  } catch (error) {
    if (isUniqueViolation(error)) fail('org.slug.taken', `an organization with slug "${slug}" exists`);
    throw error;
  }
}

// The tail of each console user's queue of slot checks in this process (see takeCreationSlot).
const slotChecks = new Map<string, Promise<unknown>>();
// Console users this process saw refused, until when: refused again without asking the database.
const refusedUntil = new Map<string, number>();

function refused(retryAfterMs: number): never {
  throw new RateLimitedError(
    'org.create.rate_limited',
    Math.max(1, Math.ceil(retryAfterMs / 1000)),
    `at most ${ORG_CREATIONS_PER_USER} organizations an hour may be created per user; try again later`,
    'api',
  );
}

/**
 * One of the console user's org creations of the window, or rate_limited (429, Retry-After). A
 * user's checks run one at a time in this process: on PostgreSQL each is a transaction waiting on
 * the bucket's advisory lock, and 40 of them at once held every pool connection while they queued.
 * Once refused, the user is refused from memory until the window frees a slot (no other process
 * can free one sooner), so the rest of a burst costs no query at all.
 */
async function takeCreationSlot(deps: DirectoryDeps, userId: string): Promise<void> {
  const until = refusedUntil.get(userId);
  if (until !== undefined && until > clock.now()) refused(until - clock.now());
  refusedUntil.delete(userId);
  const check = async () => {
    const now = clock.now();
    const known = refusedUntil.get(userId);
    if (known !== undefined && known > now) return { taken: false, retryAfterMs: known - now };
    const bucket = `org-create:${userId}`;
    return takeSlot(deps.store, bucket, ORG_CREATIONS_PER_USER, ORG_CREATION_WINDOW_MS, now);
  };
  const previous = slotChecks.get(userId) ?? Promise.resolve();
  const result = previous.then(check, check);
  const tail = result.catch(() => {});
  slotChecks.set(userId, tail);
  void tail.then(() => {
    if (slotChecks.get(userId) === tail) slotChecks.delete(userId);
  });
  const slot = await result;
  if (slot.taken) return;
  refusedUntil.set(userId, clock.now() + slot.retryAfterMs);
  refused(slot.retryAfterMs);
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
  deps: DirectoryDeps,
  consoleUserId: string,
  page: PageAsked,
): Promise<{ entries: OrgOfUser[]; total: number }> {
  const { rows, total } = await pageOrgsOfUser(deps.store, consoleUserId, windowOf(page));
  return { entries: rows, total };
}
