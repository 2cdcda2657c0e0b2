import { newSecret, secretMatches, sha256 } from '../../crypto/random.js';
import { findConnection } from '../../storage/repos/connections.js';
import {
  deleteDirectory as deleteDirectoryRow,
  findDirectory,
  findDirectoryByTokenHash,
  insertDirectory,
  pageDirectories,
  setDirectoryTokenHash,
} from '../../storage/repos/scim-directories.js';
import {
  findScimUserByUserName,
  findScimUserOf,
  insertScimUser,
  setScimUserEmails,
} from '../../storage/repos/scim-users.js';
import { recordAudit, recordUpdated } from '../audit/audit.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { requireOrgUser } from '../directory/users.js';
import { fail, failApi } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, windowOf } from '../paging.js';
import type { Actor, Org, ScimDirectory, ScimUserRecord } from '../types.js';
import type { ScimCaller, ScimDeps } from './deps.js';
import { USER_SCHEMA } from './resource.js';

/** A directory's bearer token: shown once, stored as its SHA-256. */
const TOKEN_PREFIX = 'tsc_';

const snapshot = (d: ScimDirectory) => ({
  ...fieldsOf(d, ['id', 'name', 'connectionId']),
  ...isoTimesOf(d, ['createdAt', 'updatedAt']),
});

const audit = auditTrail('directory', snapshot);

function checkName(name: string): string {
  const value = name.trim();
  if (value === '' || value.length > 100)
    failApi('directory.name.invalid', 'name must be 1 to 100 characters');
  return value;
}

/** The org's directory `id`, or 404. */
export async function requireDirectory(
  deps: Pick<ScimDeps, 'store'>,
  org: Org,
  id: string,
): Promise<ScimDirectory> {
  const found = isIdOf('directory', id) ? await findDirectory(deps.store, org.id, id) : null;
  return found ?? fail('directory.not_found', 'no such directory');
}

/**
 * An owner's new directory (DESIGN §19), optionally tied to a connection of the org: its token is
 * answered once and stored as a hash. Audited as `directory.created`.
 */
export async function createDirectory(
  deps: ScimDeps,
  org: Org,
  input: { name: string; connection?: string | null | undefined },
  actor: Actor,
): Promise<{ directory: ScimDirectory; token: string }> {
  if (org.isConsole) failApi('directory.console_org', 'the console has no directories');
  const name = checkName(input.name);
  const connectionId = input.connection ?? null;
  if (connectionId !== null) {
    const found = isIdOf('connection', connectionId)
      ? await findConnection(deps.store, org.id, connectionId)
      : null;
    if (!found)
      failApi('directory.connection.unknown', 'connection is not a connection of this organization');
  }
  const now = clock.now();
  const directory: ScimDirectory = {
    id: newResourceId('directory'),
    orgId: org.id,
    name,
    connectionId,
    createdAt: now,
    updatedAt: now,
  };
  const token = newSecret(TOKEN_PREFIX);
  await deps.unitOfWork.run(async (tx) => {
    await insertDirectory(tx, directory, sha256(token));
    await audit.created(tx, { orgId: org.id, actor, at: now }, directory);
  });
  return { directory, token };
}

export async function pageOfDirectories(
  deps: Pick<ScimDeps, 'store'>,
  org: Org,
  q: PageAsked,
): Promise<{ entries: ScimDirectory[]; total: number }> {
  const { rows, total } = await pageDirectories(deps.store, org.id, windowOf(q));
  return { entries: rows, total };
}

/** A new token for the directory; the old one stops working at once. Audited as `directory.updated`. */
export async function rotateDirectoryToken(
  deps: ScimDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<{ directory: ScimDirectory; token: string }> {
  const token = newSecret(TOKEN_PREFIX);
  return deps.unitOfWork.run(async (tx) => {
    const before = await requireDirectory({ store: tx }, org, id);
    const now = clock.now();
    await setDirectoryTokenHash(tx, before.id, sha256(token), now);
    const directory = { ...before, updatedAt: now };
    await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'directory', {
      before: snapshot(before),
      after: { ...snapshot(directory), tokenRotatedAt: new Date(now).toISOString() },
    });
    return { directory, token };
  });
}

/** Deletes the directory: its token stops working; its users stay users of the org. */
export async function deleteDirectory(deps: ScimDeps, org: Org, id: string, actor: Actor): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    const directory = await requireDirectory({ store: tx }, org, id);
    if (!(await deleteDirectoryRow(tx, org.id, directory.id)))
      fail('directory.not_found', 'no such directory');
    await audit.deleted(tx, { orgId: org.id, actor }, directory);
  });
}

/**
 * An owner adopts an existing user of the org into the directory (issue 45): from now on the
 * directory manages them (their address as userName). A user another directory holds is 409.
 * Audited as `directory_user.created`.
 */
export async function adoptUser(
  deps: ScimDeps,
  org: Org,
  directoryId: string,
  userId: string,
  actor: Actor,
): Promise<ScimUserRecord> {
  return deps.unitOfWork.run(async (tx) => {
    const directory = await requireDirectory({ store: tx }, org, directoryId);
    const user = await requireOrgUser(tx, org, userId);
    const held = await findScimUserOf(tx, user.id);
    if (held)
      fail(
        'directory.user.held',
        held.directoryId === directory.id
          ? 'the user is already in this directory'
          : 'another directory holds the user',
      );
    if (await findScimUserByUserName(tx, directory.id, user.email))
      fail('directory.user.held', `a user of the directory has userName ${user.email}`);
    const now = clock.now();
    const name = {
      ...(user.firstName ? { givenName: user.firstName } : {}),
      ...(user.lastName ? { familyName: user.lastName } : {}),
    };
    const record: ScimUserRecord = {
      userId: user.id,
      directoryId: directory.id,
      userName: user.email,
      externalId: null,
      resource: {
        userName: user.email,
        ...(Object.keys(name).length > 0 ? { name } : {}),
        emails: [{ value: user.email, type: 'work', primary: true }],
      },
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await insertScimUser(tx, record);
    await setScimUserEmails(tx, directory.id, user.id, [user.email]);
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'directory_user',
      verb: 'created',
      actor,
      at: now,
      data: { userId: user.id, directoryId: directory.id, userName: user.email, schemas: [USER_SCHEMA] },
    });
    return record;
  });
}

/**
 * The directory a SCIM request's bearer token belongs to, in the org whose host it came to; null
 * for any other token (another directory's is that directory's; another org's is no one's here).
 */
export async function authenticateDirectory(
  deps: Pick<ScimDeps, 'store'>,
  org: Org,
  token: string,
): Promise<ScimCaller | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const found = await findDirectoryByTokenHash(deps.store, org.id, sha256(token));
  if (!found || !secretMatches(token, found.tokenHash)) return null;
  return { org, directory: found.directory };
}
