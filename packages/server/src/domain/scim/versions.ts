import type { Handle } from '../../storage/handle.js';
import { fail } from '../errors.js';
import type { ScimCaller, ScimDeps } from './deps.js';

/** The weak ETag of a version (RFC 7644 §3.14). */
export const etagOf = (version: number): string => `W/"${version}"`;

/** What a resource's versions are counted on: its row, made, last changed, at its version. */
interface VersionedRow {
  createdAt: number;
  updatedAt: number;
  version: number;
}

/** A resource's `meta` (RFC 7643 §3.1) as answered: its type, when made and last changed, its URL and version. */
export const metaOf = (resourceType: 'User' | 'Group', location: string, row: VersionedRow) => ({
  resourceType,
  created: new Date(row.createdAt).toISOString(),
  lastModified: new Date(row.updatedAt).toISOString(),
  location,
  version: etagOf(row.version),
});

/** A resource's `meta` as PATCH operations see it (they never change it). */
export const patchableMeta = (row: VersionedRow) => ({
  created: new Date(row.createdAt),
  lastModified: new Date(row.updatedAt),
});

/**
 * `If-Match` (RFC 7644 §3.14): absent, `*`, or the current version's ETag (weak or not); else 412,
 * saying which `thing` changed.
 */
function checkVersion(ifMatch: string | undefined, version: number, thing = 'resource') {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const current = etagOf(version);
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (!tags.some((t) => t === current || t === current.slice(2)))
    fail('scim.version.mismatch', `the ${thing} changed since that version (If-Match)`);
}

/** How a resource type of a directory is read for a change, and which version it is at. */
export interface Versioned<V> {
  /** The directory's resource `id`; another directory's or org's, or none, is 404. */
  read(db: Handle, caller: ScimCaller, id: string): Promise<V>;
  version(current: V): number;
  /** What a 412 says changed (checkVersion). */
  thing?: string;
}

/**
 * A change of the directory's resource `id` (PUT, PATCH, DELETE): in one transaction, the resource
 * as it is, held to the version `If-Match` names, then `change`.
 */
export function changeAtVersion<V, R>(
  deps: ScimDeps,
  caller: ScimCaller,
  resources: Versioned<V>,
  request: { id: string; ifMatch: string | undefined },
  change: (tx: Handle, current: V) => Promise<R>,
): Promise<R> {
  return deps.unitOfWork.run(async (tx) => {
    const current = await resources.read(tx, caller, request.id);
    checkVersion(request.ifMatch, resources.version(current), resources.thing);
    return change(tx, current);
  });
}

/** GET of a resource type: the directory's resource `id` as the store holds it. */
export const readOf =
  <V>(type: Versioned<V>): ScimRead<V> =>
  (deps, caller, id) =>
    type.read(deps.store, caller, id);

/** DELETE of a resource type: at the version `If-Match` names, `remove` in the same transaction. */
export const deleteOf =
  <V>(
    type: Versioned<V>,
    remove: (tx: Handle, caller: ScimCaller, current: V) => Promise<void>,
  ): ScimDelete =>
  (deps, caller, id, ifMatch) =>
    changeAtVersion(deps, caller, type, { id, ifMatch }, (tx, current) => remove(tx, caller, current));

/** PUT or PATCH of the directory's resource `id`: the request's body, held to its `If-Match`. */
export type ScimWrite<V> = (
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  body: unknown,
  ifMatch: string | undefined,
) => Promise<V>;

/** POST of a new resource of the directory. */
export type ScimCreate<V> = (deps: ScimDeps, caller: ScimCaller, body: unknown) => Promise<V>;

/** GET of the directory's resource `id`. */
export type ScimRead<V> = (deps: ScimDeps, caller: ScimCaller, id: string) => Promise<V>;

/** DELETE of the directory's resource `id`, held to its `If-Match`. */
export type ScimDelete = (
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  ifMatch: string | undefined,
) => Promise<void>;
