import { ScimError as ScimPatchError, type ScimPatchOperation, scimPatch } from 'scim-patch';
import { parse } from 'scim2-parse-filter';
import { fail } from '../errors.js';
import { ENTERPRISE_SCHEMA, PATCH_SCHEMA } from './resource.js';

/** Most operations in one PATCH request. */
export const MAX_PATCH_OPERATIONS = 100;

/** Complex single-valued attributes whose sub-attributes a path-less or whole-value replace sets one by one. */
const COMPLEX = new Set([
  'name',
  ENTERPRISE_SCHEMA.toLowerCase(),
  `${ENTERPRISE_SCHEMA.toLowerCase()}:manager`,
]);

/** RFC 7644 §3.5.2's PATH: an attribute path, an optional value filter, an optional sub-attribute. */
const PATH = /^((?:urn:[^[\]]+:)?[A-Za-z][\w$-]*(?:\.[A-Za-z][\w$-]*)?)(?:\[(.+)\](?:\.[A-Za-z][\w$-]*)?)?$/;

function checkPath(path: string): void {
  const match = PATH.exec(path);
  if (!match) fail('scim.path.invalid', 'path is not an attribute path');
  const filter = match?.[2];
  if (filter === undefined) return;
  try {
    parse(filter);
  } catch {
    fail('scim.path.invalid', 'the value filter of path does not parse');
  }
}

export interface Op {
  op: 'add' | 'remove' | 'replace';
  path?: string;
  value?: unknown;
}

/**
 * Splits a value object into one operation per attribute (RFC 7644 §3.5.2.1 and .3: without a path,
 * each attribute of the value is set; on a complex attribute, only the sub-attributes given are).
 * Entra sends path-less values whose keys are paths (`name.givenName`, an extension URN and
 * attribute): each becomes the path of its own operation.
 */
function expand(op: 'add' | 'replace', base: string | null, value: Record<string, unknown>): Op[] {
  const out: Op[] = [];
  for (const [key, v] of Object.entries(value)) {
    const path =
      base === null
        ? key
        : key.toLowerCase().startsWith('urn:')
          ? key
          : `${base}${base.startsWith('urn:') ? ':' : '.'}${key}`;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && COMPLEX.has(path.toLowerCase()))
      out.push(...expand(op, path, v as Record<string, unknown>));
    else out.push({ op, path, value: v });
  }
  return out;
}

/** The operations of a PATCH body (RFC 7644 §3.5.2), read as Entra sends them too (`Replace`, path-less objects). */
export function patchOperations(body: unknown): Op[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('scim.body.invalid', 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const schemas = b.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA))
    fail('scim.body.invalid', `schemas must name ${PATCH_SCHEMA}`);
  const key = Object.keys(b).find((k) => k.toLowerCase() === 'operations');
  const ops = key === undefined ? undefined : b[key];
  if (!Array.isArray(ops) || ops.length === 0)
    return fail('scim.body.invalid', 'Operations must be a non-empty array');
  if (ops.length > MAX_PATCH_OPERATIONS)
    fail('scim.body.invalid', `Operations holds more than ${MAX_PATCH_OPERATIONS} operations`);
  const out: Op[] = [];
  for (const raw of ops) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return fail('scim.body.invalid', 'each operation must be an object');
    const entry = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
    const op = typeof entry.op === 'string' ? entry.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace')
      return fail('scim.body.invalid', 'op must be add, remove or replace');
    const path = entry.path;
    if (path !== undefined && (typeof path !== 'string' || path.length > 1000))
      return fail('scim.path.invalid', 'path must be a string of at most 1000 characters');
    if (typeof path === 'string' && path !== '') checkPath(path);
    if (op === 'remove') {
      if (path === undefined || path === '') return fail('scim.path.invalid', 'remove needs a path');
      // Entra removes members by a value list (`{"op":"Remove","path":"members","value":[{"value":"…"}]}`):
      // one removal by value filter each, whatever else the items carry (`$ref: null`).
      if (Array.isArray(entry.value) && !path.includes('[')) {
        for (const item of entry.value) {
          const v =
            typeof item === 'object' && item !== null ? (item as Record<string, unknown>).value : undefined;
          if (typeof v !== 'string' || v.includes('"') || v.includes('\\'))
            return fail('scim.value.invalid', 'each value to remove must have a plain string value');
          out.push({ op, path: `${path}[value eq "${v}"]` });
        }
        continue;
      }
      out.push(entry.value === undefined ? { op, path } : { op, path, value: entry.value });
      continue;
    }
    if (!('value' in entry)) return fail('scim.body.invalid', `${op} needs a value`);
    const value = entry.value;
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
    if ((path === undefined || path === '') && !isObject)
      return fail('scim.body.invalid', `${op} without a path needs an object value`);
    if (path === undefined || path === '') out.push(...expand(op, null, value as Record<string, unknown>));
    else if (isObject && COMPLEX.has(path.toLowerCase()))
      out.push(...expand(op, path, value as Record<string, unknown>));
    else out.push({ op, path, value });
  }
  return out;
}

/** `resource` (as answered, with `schemas` and `meta`) with the operations applied, through scim-patch. */
export function applyPatch(resource: Record<string, unknown>, ops: Op[]): Record<string, unknown> {
  const copy = structuredClone(resource) as Record<string, unknown> & { meta: never; schemas: string[] };
  try {
    return scimPatch(copy, ops as ScimPatchOperation[], { mutateDocument: false, treatMissingAsAdd: true });
  } catch (error) {
    if (error instanceof ScimPatchError) {
      const code = error.scimCode;
      if (code === 'noTarget') return fail('scim.patch.no_target', 'the path selects nothing to change');
      if (code === 'invalidPath') return fail('scim.path.invalid', 'the path is not an attribute path');
      return fail('scim.value.invalid', 'the operation cannot be applied to this resource');
    }
    // scim-patch parses paths with scim2-parse-filter, whose refusals are plain errors.
    return fail('scim.path.invalid', 'the path is not an attribute path');
  }
}
