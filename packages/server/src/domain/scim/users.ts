import { isUniqueViolation } from '../../storage/errors.js';
import type { Handle } from '../../storage/handle.js';
import { findConnection } from '../../storage/repos/connections.js';
import { groupsOfUsers } from '../../storage/repos/scim-groups.js';
import {
  countScimUsers,
  findScimUserByUserName,
  findScimUserOf,
  holdsMoreScimUsersThan,
  insertScimUser,
  type ScanMark,
  type ScimUserNarrowing,
  scimUsersBatch,
  setScimUserEmails,
  updateScimUser,
} from '../../storage/repos/scim-users.js';
import {
  findUserByEmail,
  findUserById,
  setVouchedEmail,
  updateUser as updateUserRow,
} from '../../storage/repos/users.js';
import { recordAudit } from '../audit/audit.js';
import { userSnapshot } from '../audit/snapshots.js';
import { clock } from '../clock.js';
import { insertUserWithTenant, prepareUser, removeUser } from '../directory/users.js';
import { checkEmail, checkName } from '../directory/validate.js';
import { fail } from '../errors.js';
import { claimsEmail } from '../federation/connections.js';
import { issuerOf } from '../issuers.js';
import { endUserSessions } from '../sessions/sessions.js';
import { type Org, type ScimUserRecord, SYSTEM, type User } from '../types.js';
import type { ScimCaller, ScimDeps } from './deps.js';
import { emailEquality, indexedEquality } from './filter.js';
import { type ListPage, type ListQuery, listPage, MAX_SCAN, SCAN_BATCH } from './listing.js';
import { patchOf, type Replaceable, replaceOf } from './replacement.js';
import { addressOf, ENTERPRISE_SCHEMA, USER_SCHEMA, userResourceOf } from './resource.js';
import { deleteOf, metaOf, patchableMeta, readOf, type ScimCreate } from './versions.js';

/** A user as a directory holds them. */
export interface ScimUser {
  record: ScimUserRecord;
  user: User;
  /** The directory's groups the user is a member of (read-only `groups`); none when not read. */
  groups?: readonly { id: string; displayName: string }[];
}

/** The users with the groups each is a member of, read in one query. */
async function withGroups(db: Handle, users: ScimUser[]): Promise<ScimUser[]> {
  const groups = await groupsOfUsers(
    db,
    users.map((u) => u.user.id),
  );
  return users.map((u) => ({ ...u, groups: groups.get(u.user.id) ?? [] }));
}

const withGroupsOf = async (db: Handle, u: ScimUser): Promise<ScimUser> =>
  (await withGroups(db, [u]))[0] as ScimUser;

/** The directory's SCIM base URL: `{org issuer}scim/v2/`. */
export const scimBaseUrl = (deps: Pick<ScimDeps, 'config'>, org: Org): string =>
  `${issuerOf(deps.config, org)}scim/v2/`;

/**
 * The User resource as answered (RFC 7643 §4.1): what the directory set, the user's state, the
 * groups they are a member of (read-only, §4.1.2; left out when none, as an empty list is), meta.
 */
export function userRepresentation(
  deps: Pick<ScimDeps, 'config'>,
  org: Org,
  u: ScimUser,
): Record<string, unknown> {
  const { [ENTERPRISE_SCHEMA]: enterprise, active: _active, ...core } = u.record.resource;
  const base = scimBaseUrl(deps, org);
  const groups = (u.groups ?? []).map((g) => ({
    value: g.id,
    $ref: `${base}Groups/${g.id}`,
    display: g.displayName,
  }));
  return {
    schemas: enterprise === undefined ? [USER_SCHEMA] : [USER_SCHEMA, ENTERPRISE_SCHEMA],
    id: u.user.id,
    ...core,
    active: !u.user.disabled,
    ...(groups.length === 0 ? {} : { groups }),
    ...(enterprise === undefined ? {} : { [ENTERPRISE_SCHEMA]: enterprise }),
    meta: metaOf('User', `${base}Users/${u.user.id}`, u.record),
  };
}

const notFound = (): never => fail('scim.user.not_found', 'no such user in this directory');

/** The directory's user `id`; a user of another directory or org, or none, is 404. */
async function requireScimUser(db: Handle, caller: ScimCaller, id: string): Promise<ScimUser> {
  const record = await findScimUserOf(db, id);
  if (!record || record.directoryId !== caller.directory.id) return notFound();
  const user = await findUserById(db, id);
  if (!user || user.orgId !== caller.org.id) return notFound();
  return withGroupsOf(db, { record, user });
}

/** The address checked, and the directory's rule: only in its connection's domains, when it has one. */
async function checkedAddress(db: Handle, caller: ScimCaller, resource: Record<string, unknown>) {
  const address = checkEmail(addressOf(resource));
  const connectionId = caller.directory.connectionId;
  if (connectionId !== null) {
    const connection =
      (await findConnection(db, caller.org.id, connectionId)) ??
      fail(
        'scim.user.outside_domains',
        "the directory's connection was deleted: it gives no user a new address (deactivation and deletion still work)",
      );
    if (!claimsEmail(connection, address))
      fail(
        'scim.user.outside_domains',
        `${address} is not in a domain of the directory's connection ${connection.name}`,
      );
  }
  return address;
}

/** The address may be this user's: no other user of the org has it, or 409 `uniqueness`. */
async function addressFree(db: Handle, caller: ScimCaller, address: string, self: string | null) {
  const holder = await findUserByEmail(db, caller.org.id, address);
  if (!holder || holder.id === self) return;
  const held = await findScimUserOf(db, holder.id);
  if (held?.directoryId === caller.directory.id)
    fail('scim.user.taken', `a user of this directory has the address ${address}`);
  fail(
    'scim.user.address_held',
    `${address} belongs to a user this directory did not create; an owner may adopt them into the directory`,
  );
}

async function userNameFree(db: Handle, caller: ScimCaller, userName: string, self: string | null) {
  const holder = await findScimUserByUserName(db, caller.directory.id, userName);
  if (holder && holder.userId !== self)
    fail('scim.user.taken', `userName ${userName} is taken in this directory`);
}

/** The addresses of a resource's `emails`, for the store's index of them. */
const emailsOf = (resource: Record<string, unknown>): string[] =>
  ((resource.emails as { value?: unknown }[] | undefined) ?? [])
    .map((e) => e.value)
    .filter((v): v is string => typeof v === 'string');

const note = (caller: ScimCaller) => ({ directoryId: caller.directory.id });

/** A change the directory made to a user: `user.updated` by the system, with the directory's id (DESIGN §19). */
export const auditUserUpdate = (
  tx: Handle,
  caller: ScimCaller,
  at: number,
  change: { data: Record<string, unknown>; previous: Record<string, unknown> },
) =>
  recordAudit(tx, {
    orgId: caller.org.id,
    entity: 'user',
    verb: 'updated',
    actor: SYSTEM,
    at,
    data: { ...change.data, ...note(caller) },
    previous: { ...change.previous, ...note(caller) },
  });

const nameOf = (resource: Record<string, unknown>, part: 'givenName' | 'familyName'): string | null => {
  const value = (resource.name as Record<string, unknown> | undefined)?.[part];
  return typeof value === 'string' && value.trim() !== '' ? checkName(part, value, 100) : null;
};

const externalIdOf = (resource: Record<string, unknown>) =>
  typeof resource.externalId === 'string' ? resource.externalId : null;

/**
 * POST /Users: a new org user (no password; their address verified by the directory) held by the
 * directory, with their personal tenant. Made with the directory's connection as origin, so that
 * connection's sign-in links them; an address another user of the org has is 409 `uniqueness`
 * (an owner adopts that user instead: never take over an account by provisioning its address).
 */
export const createScimUser: ScimCreate<ScimUser> = async (deps, caller, body) => {
  const resource = userResourceOf(body);
  const active = resource.active !== false;
  delete resource.active;
  const email = checkEmail(addressOf(resource));
  const prepared = await prepareUser({
    email,
    password: null,
    firstName: nameOf(resource, 'givenName'),
    lastName: nameOf(resource, 'familyName'),
  });
  return deps.unitOfWork.run(async (tx) => {
    await checkedAddress(tx, caller, resource);
    await addressFree(tx, caller, email, null);
    await userNameFree(tx, caller, resource.userName as string, null);
    const connectionId = caller.directory.connectionId;
    const { user } = await insertUserWithTenant(
      tx,
      caller.org.id,
      {
        ...prepared,
        input: {
          ...prepared.input,
          provider: 'scim',
          emailVerified: true,
          origin: connectionId === null ? 'owner' : { connectionId },
        },
      },
      SYSTEM,
      note(caller),
    );
    const record: ScimUserRecord = {
      userId: user.id,
      directoryId: caller.directory.id,
      userName: resource.userName as string,
      externalId: externalIdOf(resource),
      resource,
      version: 1,
      createdAt: user.createdAt,
      updatedAt: user.createdAt,
    };
    try {
      await insertScimUser(tx, record);
    } catch (error) {
      // Another request took the userName between the check and the write.
      if (isUniqueViolation(error))
        fail('scim.user.taken', `userName ${record.userName} is taken in this directory`);
      throw error;
    }
    await setScimUserEmails(tx, caller.directory.id, user.id, emailsOf(resource));
    if (!active) return { record, user: await applyUserState(tx, caller, user, { ...user, disabled: true }) };
    return { record, user };
  });
};

/**
 * Writes the user's new state (names, address, disabled), audited as `user.updated` with the
 * directory's id; deactivation ends every session and refresh token of the user in `tx`.
 */
async function applyUserState(tx: Handle, caller: ScimCaller, before: User, wanted: User): Promise<User> {
  if (
    wanted.email === before.email &&
    wanted.firstName === before.firstName &&
    wanted.lastName === before.lastName &&
    wanted.disabled === before.disabled
  )
    return before;
  const now = clock.now();
  const after: User = { ...wanted, updatedAt: now };
  if (after.email !== before.email) {
    try {
      await setVouchedEmail(tx, after.id, after.email, now);
    } catch (error) {
      // Another request gave the address to someone between the check and the write.
      if (isUniqueViolation(error)) fail('scim.user.taken', `another user has the address ${after.email}`);
      throw error;
    }
    after.emailVerified = true;
  }
  await updateUserRow(tx, after);
  await auditUserUpdate(tx, caller, now, { data: userSnapshot(after), previous: userSnapshot(before) });
  if (after.disabled && !before.disabled) await endUserSessions(tx, after.id, SYSTEM, now);
  return after;
}

/** Stores a replaced resource (PUT, or a PATCH's result) for the user, at the next version. */
async function replaceWith(
  tx: Handle,
  caller: ScimCaller,
  current: ScimUser,
  resource: Record<string, unknown>,
): Promise<ScimUser> {
  const active = resource.active !== false;
  delete resource.active;
  // The address rules apply to a new address only: deactivating a user never depends on them.
  let email = checkEmail(addressOf(resource));
  if (email.toLowerCase() !== current.user.email.toLowerCase()) {
    email = await checkedAddress(tx, caller, resource);
    await addressFree(tx, caller, email, current.user.id);
  }
  await userNameFree(tx, caller, resource.userName as string, current.user.id);
  const user = await applyUserState(tx, caller, current.user, {
    ...current.user,
    email: email.toLowerCase() === current.user.email.toLowerCase() ? current.user.email : email,
    firstName: nameOf(resource, 'givenName'),
    lastName: nameOf(resource, 'familyName'),
    disabled: !active,
  });
  const record: ScimUserRecord = {
    ...current.record,
    userName: resource.userName as string,
    externalId: externalIdOf(resource),
    resource,
    version: current.record.version + 1,
    updatedAt: clock.now(),
  };
  let written: boolean;
  try {
    written = await updateScimUser(tx, record, current.record.version);
  } catch (error) {
    if (isUniqueViolation(error))
      fail('scim.user.taken', `userName ${record.userName} is taken in this directory`);
    throw error;
  }
  if (!written)
    fail('scim.version.mismatch', 'the resource changed while this request was served; read it again');
  await setScimUserEmails(tx, caller.directory.id, user.id, emailsOf(resource));
  return { record, user, ...(current.groups ? { groups: current.groups } : {}) };
}

/** The directory's users as GET reads them and PUT, PATCH and DELETE change them (a 412 says "the resource changed"). */
const USERS: Replaceable<ScimUser, Record<string, unknown>> = {
  read: requireScimUser,
  version: (u) => u.record.version,
  input: userResourceOf,
  patchable: (current) => {
    const { [ENTERPRISE_SCHEMA]: enterprise, ...core } = current.record.resource;
    return {
      schemas: enterprise === undefined ? [USER_SCHEMA] : [USER_SCHEMA, ENTERPRISE_SCHEMA],
      ...core,
      active: !current.user.disabled,
      ...(enterprise === undefined ? {} : { [ENTERPRISE_SCHEMA]: enterprise }),
      meta: patchableMeta(current.record),
    };
  },
  refuse: (ops) => {
    // RFC 7644 §3.5.2: a read-only attribute is `mutability`; PUT ignores it instead (§3.5.1).
    const readOnly = ops.find((o) => /^groups(\[|\.|$)/i.test(o.path ?? ''));
    if (readOnly !== undefined)
      fail('scim.value.read_only', `${readOnly.path} is read-only: a user's groups change through /Groups`);
  },
  replaceWith,
};

/** GET /Users/{id}. */
export const getScimUser = readOf(USERS);

/** PUT /Users/{id} (RFC 7644 §3.5.1): the resource replaced; `If-Match` honoured. */
export const replaceScimUser = replaceOf(USERS);

/** PATCH /Users/{id} (RFC 7644 §3.5.2, Entra's forms too); `If-Match` honoured. */
export const patchScimUser = patchOf(USERS);

/** DELETE /Users/{id}: the user is deleted (sessions ended, `user.deleted` with the directory's id). */
export const deleteScimUser = deleteOf(USERS, (tx, caller, current) =>
  removeUser(tx, caller.org, current.user, SYSTEM, note(caller)),
);

/**
 * GET /Users (RFC 7644 §3.4.2): the directory's users matching `filter` (all without one), in
 * creation order, from `startIndex` (1-based), at most `count`. A filter with an equality on
 * userName, externalId or id reads by index; any other is evaluated over the directory in batches.
 */
export function listScimUsers(deps: ScimDeps, caller: ScimCaller, query: ListQuery): Promise<ListPage> {
  const represented = async (rows: ScimUser[]) =>
    (await withGroups(deps.store, rows)).map((u) => userRepresentation(deps, caller.org, u));
  return listPage(query, {
    count: () => countScimUsers(deps.store, caller.directory.id),
    window: async (window) =>
      represented(await scimUsersBatch(deps.store, caller.directory.id, { kind: 'all' }, window)),
    scan: async function* (filter) {
      const equality = indexedEquality(filter);
      const email = equality === null ? emailEquality(filter) : null;
      const narrowing: ScimUserNarrowing =
        equality !== null
          ? { kind: equality.attribute, value: equality.value }
          : email !== null
            ? { kind: 'email', value: email }
            : { kind: 'all' };
      // A filter no index serves is evaluated over every user of the directory: only up to a size.
      if (
        narrowing.kind === 'all' &&
        (await holdsMoreScimUsersThan(deps.store, caller.directory.id, MAX_SCAN))
      )
        fail(
          'scim.filter.too_many',
          `this filter reads every user of the directory, which holds more than ${MAX_SCAN}: filter on userName, externalId, id or an email value`,
        );
      let after: ScanMark | undefined;
      for (;;) {
        const rows = await scimUsersBatch(deps.store, caller.directory.id, narrowing, {
          offset: 0,
          limit: SCAN_BATCH,
          ...(after ? { after } : {}),
        });
        yield await represented(rows);
        const last = rows.at(-1);
        if (rows.length < SCAN_BATCH || last === undefined) return;
        after = { createdAt: last.record.createdAt, userId: last.record.userId };
      }
    },
  });
}
