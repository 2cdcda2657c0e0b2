import { isUniqueViolation } from '../../storage/errors.js';
import type { Handle } from '../../storage/handle.js';
import {
  deleteApiResourceRow,
  dropPermissionsOutside,
  findApiResource,
  insertApiResource,
  pageApiResources,
  updateApiResourceRow,
} from '../../storage/repos/api-resources.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { checkName } from '../directory/validate.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, windowOf } from '../paging.js';
import type { Actor, ApiResource, Org, ResourceScope } from '../types.js';
import { ACCESS_TOKEN_TTL } from './access-token-ttl.js';
import type { ResourcesDeps } from './deps.js';
import { resourceIdentifierProblem } from './resource-identifier.js';
import { MAX_SCOPE_DESCRIPTION, scopeNameProblem } from './resource-scope-names.js';
import { resourceSnapshot } from './snapshots.js';

export interface NewApiResource {
  identifier: string;
  name: string;
  scopes?: ResourceScope[];
  accessTokenTtl?: number;
}

export interface ApiResourceChanges {
  name?: string;
  scopes?: ResourceScope[];
  accessTokenTtl?: number;
}

/** The checked scopes: names by their rule, unique within the resource, descriptions 1-200 characters. */
function checkScopes(scopes: readonly ResourceScope[]): ResourceScope[] {
  const seen = new Set<string>();
  return scopes.map((s, i) => {
    const problem = scopeNameProblem(s.name);
    if (problem !== null) fail('resource.scope.name_invalid', `scopes[${i}].name: ${problem}`);
    if (seen.has(s.name)) fail('resource.scope.duplicate', `scopes[${i}].name: "${s.name}" is given twice`);
    seen.add(s.name);
    const description = s.description.trim();
    if (description.length === 0 || description.length > MAX_SCOPE_DESCRIPTION) {
      fail(
        'resource.scope.description_length',
        `scopes[${i}].description: must be 1-${MAX_SCOPE_DESCRIPTION} characters`,
      );
    }
    return { name: s.name, description };
  });
}

function checkTtl(ttl: number): number {
  if (!Number.isInteger(ttl) || ttl < ACCESS_TOKEN_TTL.min || ttl > ACCESS_TOKEN_TTL.max) {
    fail(
      'resource.token_ttl.out_of_range',
      `access_token_ttl: must be ${ACCESS_TOKEN_TTL.min}-${ACCESS_TOKEN_TTL.max} seconds`,
    );
  }
  return ttl;
}

const TAKEN = 'another resource of this organization has that identifier';

const audit = auditTrail('resource', resourceSnapshot);

/** Registers an API resource of the org; `resource.created` is audited with it. */
export async function createApiResource(
  deps: ResourcesDeps,
  org: Org,
  input: NewApiResource,
  actor: Actor,
): Promise<ApiResource> {
  const problem = resourceIdentifierProblem(input.identifier);
  if (problem !== null) fail('resource.identifier.invalid', `identifier: ${problem}`);
  const now = clock.now();
  const resource: ApiResource = {
    id: newResourceId('resource'),
    orgId: org.id,
    identifier: input.identifier,
    name: checkName('name', input.name),
    scopes: checkScopes(input.scopes ?? []),
    accessTokenTtl: checkTtl(input.accessTokenTtl ?? ACCESS_TOKEN_TTL.default),
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.unitOfWork.run(async (tx) => {
      await insertApiResource(tx, resource);
      await audit.created(tx, { orgId: org.id, actor, at: now }, resource);
    });
  } catch (error) {
    if (isUniqueViolation(error)) fail('resource.identifier.taken', TAKEN);
    throw error;
  }
  return resource;
}

/** One page of the org's resources, oldest first. */
export function listApiResources(deps: ResourcesDeps, org: Org, q: PageAsked) {
  return pageApiResources(deps.store, org.id, windowOf(q));
}

const NO_SUCH_RESOURCE = 'no such resource';

async function orgResource(db: Handle, org: Org, id: string): Promise<ApiResource> {
  if (!isIdOf('resource', id)) return fail('resource.not_found', NO_SUCH_RESOURCE);
  return (await findApiResource(db, org.id, id)) ?? fail('resource.not_found', NO_SUCH_RESOURCE);
}

/** One of the org's resources; 404 `not_found` for any other id. */
export const getApiResource = (deps: ResourcesDeps, org: Org, id: string) => orgResource(deps.store, org, id);

/**
 * Updates a resource's name, scopes or token lifetime (its identifier never changes), audited as
 * `resource.updated`. A scope removed is removed from every role and client permitted it.
 */
export async function updateApiResource(
  deps: ResourcesDeps,
  org: Org,
  id: string,
  changes: ApiResourceChanges,
  actor: Actor,
): Promise<ApiResource> {
  const name = changes.name === undefined ? undefined : checkName('name', changes.name);
  const scopes = changes.scopes && checkScopes(changes.scopes);
  const ttl = changes.accessTokenTtl === undefined ? undefined : checkTtl(changes.accessTokenTtl);
  return deps.unitOfWork.run(async (tx) => {
    const before = await orgResource(tx, org, id);
    const after: ApiResource = {
      ...before,
      name: name ?? before.name,
      scopes: scopes ?? before.scopes,
      accessTokenTtl: ttl ?? before.accessTokenTtl,
    };
    if (audit.unchanged(before, after)) return before;
    after.updatedAt = clock.now();
    await updateApiResourceRow(tx, after);
    if (scopes)
      await dropPermissionsOutside(
        tx,
        id,
        scopes.map((s) => s.name),
      );
    await audit.updated(tx, { orgId: org.id, actor, at: after.updatedAt }, before, after);
    return after;
  });
}

/**
 * Deletes a resource, audited as `resource.deleted`; the permissions naming it leave every role
 * and client with it. Tokens already issued for it live out their (short) lifetime; no new one is.
 */
export async function deleteApiResource(
  deps: ResourcesDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    await orgResource(tx, org, id);
    const deleted = await deleteApiResourceRow(tx, org.id, id);
    if (!deleted) fail('resource.not_found', NO_SUCH_RESOURCE);
    await audit.deleted(tx, { orgId: org.id, actor }, deleted as ApiResource);
  });
}
