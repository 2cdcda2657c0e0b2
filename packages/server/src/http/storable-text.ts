import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../domain/storable-text.js';
import { type InputPlace, inputError } from './errors.js';
import { parseForm } from './form.js';

/**
 * The input rule at the edge: every text a request carries must be text PostgreSQL can store.
 * A NUL (U+0000) cannot be stored in a PostgreSQL text column, and neither can a lone UTF-16
 * surrogate (which JSON.parse makes of "\ud800"); SQLite keeps both. So that both databases see
 * the same requests, and no handler or query ever meets such text, a request carrying one in its
 * path, query, form or JSON body (names and values, at any depth) is refused with a 400 in its
 * endpoint's own family (errors.ts inputError) before any handler runs (the rule itself:
 * domain/storable-text.ts).
 */

type Names = (string | number)[];

/** A container's entries as [name, values]: a form gives each name all its values (repeats too). */
function entriesOf(value: object): [string | number, unknown[]][] {
  if (value instanceof Map) return [...(value as Map<string, unknown[]>)];
  if (Array.isArray(value)) return value.map((inner, i) => [i, [inner]]);
  return Object.entries(value).map(([name, inner]) => [name, [inner]]);
}

interface Visit {
  value: unknown;
  name?: string | number;
  parent?: Visit;
}

function namesOf(visit: Visit): Names {
  const names: Names = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) names.push(at.name as string | number);
  return names.reverse();
}

/**
 * True when `value` is text, no container, a form (names to lists of texts) or an object of texts,
 * and every text and name in it can be stored: the common request, answered without the walk's
 * bookkeeping (it ran on every request). False says nothing: the walk decides then.
 */
function flatAndStorable(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (typeof value !== 'object' || value === null) return true;
  if (value instanceof Map) {
    for (const [name, values] of value as Map<unknown, unknown>) {
      if (typeof name !== 'string' || !isStorableText(name) || !Array.isArray(values)) return false;
      for (const text of values) if (typeof text !== 'string' || !isStorableText(text)) return false;
    }
    return true;
  }
  if (Array.isArray(value)) return false;
  for (const [name, text] of Object.entries(value)) {
    if (!isStorableText(name) || typeof text !== 'string' || !isStorableText(text)) return false;
  }
  return true;
}

/**
 * The names leading to the first unstorable text in `value` (a name counts as text too), or null.
 * Walked without recursion: a 64 KB body can nest thousands of arrays deep.
 */
function unstorableIn(value: unknown): Names | null {
  if (flatAndStorable(value)) return null;
  const pending: Visit[] = [{ value }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (typeof visit.value === 'string') {
      if (!isStorableText(visit.value)) return namesOf(visit);
      continue;
    }
    if (typeof visit.value !== 'object' || visit.value === null) continue;
    const children: Visit[] = [];
    for (const [name, values] of entriesOf(visit.value)) {
      if (typeof name === 'string' && !isStorableText(name)) return [...namesOf(visit), name];
      for (const inner of values) children.push({ value: inner, name, parent: visit });
    }
    // Last child first onto the stack, so the first is looked at first.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as Visit);
  }
  return null;
}

/** A text body as the endpoints read it: as text, and as JSON when it is JSON (registration). */
function unstorableInText(text: string): Names | null {
  if (!isStorableText(text)) return [];
  try {
    return unstorableIn(JSON.parse(text));
  } catch {
    return null;
  }
}

const PLAIN_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const PLACE_NAMES: Record<InputPlace, string> = {
  path: 'the path',
  query: 'the query',
  header: 'a header',
  body: 'the body',
};

/** `events[2]` or `client_id`; the place itself when a name is not plain (never echo odd input). */
function describe(place: InputPlace, names: Names): string {
  if (names.length === 0 || names.some((n) => typeof n === 'string' && !PLAIN_NAME.test(n))) {
    return PLACE_NAMES[place];
  }
  return names.map((n, i) => (typeof n === 'number' ? `[${n}]` : i === 0 ? n : `.${n}`)).join('');
}

/** Where the first unstorable text of `request` is, or null when every text can be stored. */
function findUnstorable(request: FastifyRequest): { place: InputPlace; names: Names } | null {
  const url = request.raw.url ?? '';
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const body = request.body;
  const checks: [InputPlace, () => Names | null][] = [
    ['path', () => unstorableIn(request.params)],
    // The query as the handlers read it: the pairs as sent, and fastify's parse of them. Without a
    // `%`, decoding adds no character but a space (`+`), so the raw query speaks for both.
    [
      'query',
      () =>
        !query.includes('%') && isStorableText(query)
          ? null
          : (unstorableIn(parseForm(query)) ?? unstorableIn(request.query)),
    ],
    ['body', () => (typeof body === 'string' ? unstorableInText(body) : unstorableIn(body))],
  ];
  for (const [place, check] of checks) {
    const names = check();
    if (names) return { place, names };
  }
  return null;
}

/** A preValidation hook: refuses a request carrying text that cannot be stored (see above). */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  const found = findUnstorable(request);
  if (found === null) return;
  const where = describe(found.place, found.names);
  const field = typeof found.names[0] === 'string' ? found.names[0] : undefined;
  throw inputError(
    request,
    found.place,
    'request.text.unstorable',
    `${where} must not contain a NUL character or an unpaired surrogate`,
    field,
  );
}
