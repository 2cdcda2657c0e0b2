import type { Handle } from '../../storage/handle.js';
import { findClient } from '../../storage/repos/clients.js';
import {
  deleteTrustedAppRow,
  findTrustedApp,
  insertTrustedApp,
  listTrustedApps as listStored,
  updateTrustedAppRow,
} from '../../storage/repos/trusted-apps.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { checkName } from '../directory/validate.js';
import { fail, failApi } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { isLoopbackHost } from '../loopback.js';
import { resourceIdentifierProblem } from '../resources/index.js';
import { runForIdOf } from '../run-for-id.js';
import type { Actor, Org, TrustedApp } from '../types.js';
import type { EnterpriseAccessDeps } from './deps.js';

/**
 * The org's trusted apps (DESIGN §20): the target authorization servers its owners let some of its
 * clients reach with ID-JAGs, as an enterprise identity provider. Nothing is issued for an audience
 * that no trusted app names for the asking client (id-jag-issuing.ts).
 */

export interface NewTrustedApp {
  name: string;
  audience: string;
  targetClientId: string;
  clientIds: string[];
  resources?: string[] | undefined;
  scopes?: string[] | undefined;
}

export type TrustedAppChanges = Partial<NewTrustedApp>;

/** A trusted app as its audit entries and the `tessera trusted-app` commands show it: camelCase, ISO times. */
export const trustedAppSnapshot = (a: TrustedApp) => ({
  ...fieldsOf(a, ['id', 'name', 'audience', 'targetClientId', 'clientIds', 'resources', 'scopes']),
  ...isoTimesOf(a, ['createdAt', 'updatedAt']),
});

const audit = auditTrail('trusted_app', trustedAppSnapshot);

/** An authorization server's issuer (RFC 8414 §2): https (http on loopback), no query, no fragment. */
function checkAudience(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {}
  const https = url?.protocol === 'https:' || (url?.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (
    !url ||
    !https ||
    url.search !== '' ||
    value.includes('#') ||
    url.username !== '' ||
    value.length > 2000
  )
    failApi(
      'trusted_app.audience.invalid',
      'audience must be the issuer URL of the target authorization server: https, no query or fragment',
    );
  return value;
}

function checkTargetClientId(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (value.length === 0 || value.length > 2000 || /[\u0000-\u001f\u007f]/.test(value))
    failApi('trusted_app.target_client_id.invalid', 'target_client_id must be 1-2000 printable characters');
  return value;
}

function checkResources(values: readonly string[]): string[] {
  for (const value of values) {
    const problem = resourceIdentifierProblem(value);
    if (problem !== null) failApi('trusted_app.resource.invalid', `resources: ${value} ${problem}`);
  }
  return [...new Set(values)];
}

/** RFC 6749 §3.3 scope-token: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/;

function checkScopes(values: readonly string[]): string[] {
  for (const value of values)
    if (!SCOPE_TOKEN.test(value))
      failApi('trusted_app.scope.invalid', `scopes: "${value}" is not a scope token`);
  return [...new Set(values)];
}

/**
 * The clients that may ask: confidential clients of the org (the draft's security considerations:
 * never a public client), each given this audience by no other trusted app, so an ID-JAG request
 * has one answer.
 */
async function checkClients(tx: Handle, org: Org, app: TrustedApp): Promise<void> {
  for (const id of app.clientIds) {
    const client = isIdOf('client', id) ? await findClient(tx, org.id, id) : null;
    if (client?.kind !== 'confidential')
      failApi(
        'trusted_app.client.unknown',
        `client_ids: ${id} is not a confidential client of this organization`,
      );
  }
  for (const other of await listStored(tx, org.id)) {
    if (other.id === app.id || other.audience !== app.audience) continue;
    const shared = app.clientIds.find((id) => other.clientIds.includes(id));
    if (shared !== undefined)
      fail('trusted_app.client.taken', `trusted app ${other.id} already gives ${shared} this audience`);
  }
}

/** Creates a trusted app with its `trusted_app.created` entry. */
export async function createTrustedApp(
  deps: Pick<EnterpriseAccessDeps, 'unitOfWork'>,
  org: Org,
  input: NewTrustedApp,
  actor: Actor,
): Promise<TrustedApp> {
  const now = clock.now();
  const app: TrustedApp = {
    id: newResourceId('trustedApp'),
    orgId: org.id,
    name: checkName('name', input.name, 100),
    audience: checkAudience(input.audience),
    targetClientId: checkTargetClientId(input.targetClientId),
    clientIds: [...new Set(input.clientIds)],
    resources: checkResources(input.resources ?? []),
    scopes: checkScopes(input.scopes ?? []),
    createdAt: now,
    updatedAt: now,
  };
  await deps.unitOfWork.run(async (tx) => {
    await checkClients(tx, org, app);
    await insertTrustedApp(tx, app);
    await audit.created(tx, { orgId: org.id, actor, at: now }, app);
  });
  return app;
}

export function listTrustedApps(deps: Pick<EnterpriseAccessDeps, 'store'>, org: Org): Promise<TrustedApp[]> {
  return listStored(deps.store, org.id);
}

const noSuchApp = () => fail('trusted_app.not_found', 'no such trusted app');

/** The org's trusted app `id`, or 404 for any other id. */
async function orgApp(db: Handle, org: Org, id: string): Promise<TrustedApp> {
  const found = isIdOf('trustedApp', id) ? await findTrustedApp(db, org.id, id) : null;
  return found ?? noSuchApp();
}

/** One of the org's trusted apps; 404 for any other id. */
export const getTrustedApp = (deps: Pick<EnterpriseAccessDeps, 'store'>, org: Org, id: string) =>
  orgApp(deps.store, org, id);

/** Updates a trusted app with `trusted_app.updated`; a given list replaces the stored one. */
export async function updateTrustedApp(
  deps: Pick<EnterpriseAccessDeps, 'unitOfWork'>,
  org: Org,
  id: string,
  changes: TrustedAppChanges,
  actor: Actor,
): Promise<TrustedApp> {
  return runForIdOf(deps.unitOfWork, 'trustedApp', id, noSuchApp, async (tx) => {
    const before = await orgApp(tx, org, id);
    const after: TrustedApp = {
      ...before,
      name: changes.name === undefined ? before.name : checkName('name', changes.name, 100),
      audience: changes.audience === undefined ? before.audience : checkAudience(changes.audience),
      targetClientId:
        changes.targetClientId === undefined
          ? before.targetClientId
          : checkTargetClientId(changes.targetClientId),
      clientIds: changes.clientIds === undefined ? before.clientIds : [...new Set(changes.clientIds)],
      resources: changes.resources === undefined ? before.resources : checkResources(changes.resources),
      scopes: changes.scopes === undefined ? before.scopes : checkScopes(changes.scopes),
      updatedAt: Math.max(clock.now(), before.updatedAt + 1),
    };
    await checkClients(tx, org, after);
    await updateTrustedAppRow(tx, after);
    await audit.updated(tx, { orgId: org.id, actor, at: after.updatedAt }, before, after);
    return after;
  });
}

/** Deletes a trusted app with `trusted_app.deleted`: no ID-JAG is issued for it from then on. */
export async function deleteTrustedApp(
  deps: Pick<EnterpriseAccessDeps, 'unitOfWork'>,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  await runForIdOf(deps.unitOfWork, 'trustedApp', id, noSuchApp, async (tx) => {
    const before = await orgApp(tx, org, id);
    if (!(await deleteTrustedAppRow(tx, org.id, id))) noSuchApp();
    await audit.deleted(tx, { orgId: org.id, actor, at: clock.now() }, before);
  });
}
