import type { Verb } from '../audit-entry.js';

/** The verbs of routing keys (spec "Events"); a key is `<entity>.<verb>`. */
export const VERBS: readonly Verb[] = ['created', 'updated', 'deleted', 'login'];

/** An entity type as it appears in routing keys: lowercase letters, digits, `_` and `-`. */
export const ENTITY_SHAPE = /^[a-z0-9_-]{1,64}$/;

/**
 * A webhook subscription pattern: `#` (every event), or `<entity>.<verb>` where either part may
 * be `*` (any one part). Keys always have exactly two parts, so a pattern of any other length,
 * a verb outside VERBS, or `#` as one part (`tenant.#`, which could only mean `tenant.*`) is
 * refused: it would never match, or it is a second spelling of a pattern that does.
 */
export const ROUTING_PATTERN = new RegExp(`^(#|(\\*|[a-z0-9_-]{1,64})\\.(\\*|${VERBS.join('|')}))$`);

/** Whether an entry with routing key `key` is delivered to a subscription with `pattern`. */
export function matchesRoutingKey(pattern: string, key: string): boolean {
  if (pattern === '#') return true;
  const [entity, verb, extra] = key.split('.');
  const [pEntity, pVerb] = pattern.split('.');
  if (extra !== undefined || entity === undefined || verb === undefined) return false;
  return (pEntity === '*' || pEntity === entity) && (pVerb === '*' || pVerb === verb);
}
