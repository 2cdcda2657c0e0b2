import type { Allow } from './types.js';

/**
 * The verbs a whitelist rule may name.
 *
 * @example
 * ```ts
 * const readOnly: HttpVerb[] = ['GET', 'HEAD'];
 * ```
 */
export type HttpVerb = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * One whitelist rule: a path pattern and the verbs it lets through without a token. A string matches the
 * path exactly; a RegExp is tested against the path.
 *
 * @example
 * ```ts
 * const rules: WhitelistRule[] = [
 *   ['/health', ['GET', 'HEAD']],
 *   [/^\/public\/[a-z0-9-]+$/, ['GET']],
 * ];
 * ```
 */
export type WhitelistRule = readonly [pattern: string | RegExp, verbs: readonly HttpVerb[]];

const VERBS: ReadonlySet<string> = new Set<HttpVerb>([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
]);

/**
 * Builds the `allow(path, method)` function of `authenticate` from rules.
 *
 * Matching is per verb (`GET` does not imply `HEAD`) and against the path only: anything from the first
 * `?` on is ignored. The path is matched as received, not percent-decoded or normalised. A string pattern
 * matches exactly, so `/health` matches `/health` and `/health?probe=1` but not `/health/` or
 * `/health-internal`; for anything looser use an anchored RegExp. RegExps with the `g` or `y` flag are
 * copied without them, so that matching never depends on an earlier match. Rules are checked here: a
 * pattern that is neither a string starting with `/` nor a RegExp, or an unknown verb, is a `TypeError`.
 *
 * @example
 * ```ts
 * import { whitelist } from '@tessera/koa';
 *
 * const allow = whitelist([
 *   ['/health', ['GET', 'HEAD']],
 *   [/^\/docs(?:\/.*)?$/, ['GET']],
 * ]);
 * allow('/health', 'GET'); // true
 * allow('/health', 'POST'); // false
 * allow('/docs/intro', 'GET'); // true
 * ```
 */
export function whitelist(rules: readonly WhitelistRule[]): Allow {
  if (!Array.isArray(rules)) throw new TypeError('whitelist: rules must be an array of [pattern, verbs]');
  const exact = new Map<string, Set<string>>();
  const patterns: { readonly test: RegExp; readonly verbs: ReadonlySet<string> }[] = [];

  rules.forEach((rule: unknown, index) => {
    if (!Array.isArray(rule) || rule.length !== 2) {
      throw new TypeError(`whitelist: rule ${index} must be a [pattern, verbs] pair`);
    }
    const [pattern, verbs] = rule as [unknown, unknown];
    const verbSet = checkVerbs(verbs, index);
    if (typeof pattern === 'string') {
      if (!pattern.startsWith('/')) throw new TypeError(`whitelist: rule ${index} path must start with "/"`);
      const known = exact.get(pattern) ?? new Set<string>();
      for (const verb of verbSet) known.add(verb);
      exact.set(pattern, known);
    } else if (pattern instanceof RegExp) {
      patterns.push({ test: new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')), verbs: verbSet });
    } else {
      throw new TypeError(`whitelist: rule ${index} pattern must be a string or a RegExp`);
    }
  });

  return function allow(path: string, method: string): boolean {
    const query = path.indexOf('?');
    const bare = query === -1 ? path : path.slice(0, query);
    if (exact.get(bare)?.has(method) === true) return true;
    for (const rule of patterns) {
      if (rule.verbs.has(method) && rule.test.test(bare)) return true;
    }
    return false;
  };
}

function checkVerbs(verbs: unknown, index: number): ReadonlySet<string> {
  if (!Array.isArray(verbs) || verbs.length === 0) {
    throw new TypeError(`whitelist: rule ${index} verbs must be a non-empty array`);
  }
  for (const verb of verbs) {
    if (typeof verb !== 'string' || !VERBS.has(verb)) {
      throw new TypeError(`whitelist: rule ${index} has an unknown verb; use ${[...VERBS].join(', ')}`);
    }
  }
  return new Set(verbs as string[]);
}
