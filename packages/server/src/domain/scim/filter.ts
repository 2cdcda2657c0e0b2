import { type Filter, parse } from 'scim2-parse-filter';
import { fail } from '../errors.js';

/** Longest filter accepted (characters); a longer one is refused before it is parsed. */
export const MAX_FILTER_LENGTH = 2048;
/** Most comparisons and operators in one filter. */
const MAX_FILTER_NODES = 64;
/** Deepest nesting of operators in one filter. */
const MAX_FILTER_DEPTH = 12;

/** Attributes compared case-sensitively (RFC 7643: `caseExact` true); every other string ignores case. */
const CASE_EXACT = new Set(['id', 'externalid', 'meta.version', 'meta.location']);

const refuse = (detail: string): never => fail('scim.filter.invalid', detail);

function measure(f: Filter, depth: number, count: { nodes: number }): void {
  count.nodes += 1;
  if (count.nodes > MAX_FILTER_NODES) refuse(`the filter has more than ${MAX_FILTER_NODES} terms`);
  if (depth > MAX_FILTER_DEPTH) refuse(`the filter nests deeper than ${MAX_FILTER_DEPTH}`);
  if (f.op === 'and' || f.op === 'or') for (const g of f.filters) measure(g, depth + 1, count);
  else if (f.op === 'not') measure(f.filter, depth + 1, count);
  else if (f.op === '[]') measure(f.valFilter, depth + 1, count);
}

/**
 * `emails[type eq "work"].value eq "…"` (Entra) arrives from the parser as an `and` of the value
 * filter and `emails.value eq …`, which two different addresses could satisfy: joined back into one
 * value filter, so the same address must match both.
 */
function joinValuePaths(f: Filter): Filter {
  if (f.op === 'not') return { op: 'not', filter: joinValuePaths(f.filter) };
  if (f.op === '[]') return { ...f, valFilter: joinValuePaths(f.valFilter) };
  if (f.op !== 'and' && f.op !== 'or') return f;
  const filters = f.filters.map(joinValuePaths);
  if (f.op === 'and' && filters.length === 2) {
    const [a, b] = filters as [Filter, Filter];
    if (a.op === '[]' && b.op !== '[]' && 'attrPath' in b) {
      const prefix = `${a.attrPath.toLowerCase()}.`;
      if (b.attrPath.toLowerCase().startsWith(prefix)) {
        const inner = { ...b, attrPath: b.attrPath.slice(prefix.length) } as Filter;
        return { op: '[]', attrPath: a.attrPath, valFilter: { op: 'and', filters: [a.valFilter, inner] } };
      }
    }
  }
  return { op: f.op, filters };
}

/** A filter parsed by the RFC 7644 §3.4.2.2 grammar (scim2-parse-filter), bounded in size and depth. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) refuse(`the filter is longer than ${MAX_FILTER_LENGTH} characters`);
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch {
    return refuse('the filter does not follow RFC 7644 §3.4.2.2');
  }
  measure(parsed, 0, { nodes: 0 });
  return joinValuePaths(parsed);
}

/** The values at `path` (dotted, or an extension URN then attributes) of `r`, attribute names in any case. */
function valuesAt(r: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return Array.isArray(r) ? r : [r];
  if (Array.isArray(r)) return r.flatMap((item) => valuesAt(item, path));
  if (typeof r !== 'object' || r === null) return [];
  const wanted = (path[0] as string).toLowerCase();
  const key = Object.keys(r).find((k) => k.toLowerCase() === wanted);
  return key === undefined ? [] : valuesAt((r as Record<string, unknown>)[key], path.slice(1));
}

function pathOf(attrPath: string): string[] {
  const colon = attrPath.lastIndexOf(':');
  if (colon === -1) return attrPath.split('.');
  return [attrPath.slice(0, colon), ...attrPath.slice(colon + 1).split('.')];
}

function compare(op: string, actual: unknown, expected: unknown, caseExact: boolean): boolean {
  if (op === 'pr') return actual !== undefined && actual !== null && actual !== '';
  let a = actual;
  let e = expected;
  if (typeof a === 'string' && typeof e === 'string' && !caseExact) {
    a = a.toLowerCase();
    e = e.toLowerCase();
  }
  switch (op) {
    case 'eq':
      return a === e;
    case 'ne':
      return a !== e;
    case 'co':
      return typeof a === 'string' && typeof e === 'string' && a.includes(e);
    case 'sw':
      return typeof a === 'string' && typeof e === 'string' && a.startsWith(e);
    case 'ew':
      return typeof a === 'string' && typeof e === 'string' && a.endsWith(e);
    case 'gt':
      return typeof a === typeof e && e !== null && (a as string) > (e as string);
    case 'ge':
      return typeof a === typeof e && e !== null && (a as string) >= (e as string);
    case 'lt':
      return typeof a === typeof e && e !== null && (a as string) < (e as string);
    case 'le':
      return typeof a === typeof e && e !== null && (a as string) <= (e as string);
    default:
      return false;
  }
}

/** Whether the resource `r` (as it is answered) matches `f`. */
export function matches(r: unknown, f: Filter): boolean {
  switch (f.op) {
    case 'and':
      return f.filters.every((g) => matches(r, g));
    case 'or':
      return f.filters.some((g) => matches(r, g));
    case 'not':
      return !matches(r, f.filter);
    case '[]':
      return valuesAt(r, pathOf(f.attrPath)).some((item) => matches(item, f.valFilter));
    default: {
      const caseExact = CASE_EXACT.has(f.attrPath.toLowerCase());
      const values = valuesAt(r, pathOf(f.attrPath));
      if (f.op === 'ne') return values.every((v) => compare('ne', v, f.compValue, caseExact));
      if (f.op === 'pr') return values.some((v) => compare('pr', v, null, caseExact));
      return values.some((v) => compare(f.op, v, f.compValue, caseExact));
    }
  }
}

/** An equality the store can look up by index, which every match must satisfy; null when none. */
export function indexedEquality<A extends string = 'userName' | 'externalId' | 'id'>(
  f: Filter,
  indexed: readonly A[] = ['userName', 'externalId', 'id'] as unknown as A[],
): { attribute: A; value: string } | null {
  if (f.op === 'eq' && typeof f.compValue === 'string') {
    const attribute = indexed.find((a) => a.toLowerCase() === f.attrPath.toLowerCase());
    return attribute === undefined ? null : { attribute, value: f.compValue };
  }
  if (f.op === 'and') {
    for (const g of f.filters) {
      const found = indexedEquality(g, indexed);
      if (found) return found;
    }
  }
  return null;
}

/** The value of `value eq "…"` (or `attr eq`) in a value filter or an `and` of them; null when none. */
function valueEquality(f: Filter, attribute: string): string | null {
  if (f.op === 'eq' && typeof f.compValue === 'string' && f.attrPath.toLowerCase() === attribute)
    return f.compValue;
  if (f.op === 'and') {
    for (const g of f.filters) {
      const found = valueEquality(g, attribute);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * An address every match must have among its `emails` (`emails.value eq "…"`,
 * `emails[type eq "work"].value eq "…"`, `emails[value eq "…"]`, alone or in an `and`), for the
 * store's index of addresses; null when none.
 */
export function emailEquality(f: Filter): string | null {
  const direct = valueEquality(f, 'emails.value');
  if (direct !== null) return direct;
  if (f.op === '[]' && f.attrPath.toLowerCase() === 'emails') return valueEquality(f.valFilter, 'value');
  if (f.op === 'and') {
    for (const g of f.filters) {
      const found = emailEquality(g);
      if (found !== null) return found;
    }
  }
  return null;
}
