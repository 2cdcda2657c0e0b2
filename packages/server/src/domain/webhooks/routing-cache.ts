import type { Handle } from '../../storage/handle.js';
import { activeWebhookPatterns, webhookFingerprint } from '../../storage/repos/webhooks.js';
import { compilePatterns, type PatternMatcher } from './pattern-matcher.js';

/**
 * Compiled routing tables per org, kept in this process. Each event first reads the org's webhook
 * fingerprint (one indexed aggregate query, in the event's own transaction) and recompiles only
 * when it changed, so a webhook created, deleted or disabled on any node is seen by the very next
 * event on every node: no TTL, no cross-node messages. An org without webhooks costs that one query.
 */
const MAX_ORGS = 10_000;
const cache = new Map<string, { fingerprint: string; matcher: PatternMatcher }>();

/**
 * The org's webhook fingerprint as this process last read it, when its webhooks then took none of
 * `keys` (null when it had none, or when this process has not read it yet: most orgs have none);
 * undefined when some would take one. A statement that writes such entries without their
 * deliveries checks the fingerprint is still this one (storage/repos/sign-in-writes.ts).
 */
export function quietWebhooks(orgId: string, keys: readonly string[]): string | null | undefined {
  const entry = cache.get(orgId);
  if (entry === undefined) return null;
  const matcher = entry.matcher;
  return keys.every((key) => matcher.match(key).length === 0) ? entry.fingerprint : undefined;
}

/**
 * The ids of the org's active webhooks subscribed to `key`. `known`: the fingerprint the caller's
 * statement read already in this transaction (an audit entry's INSERT returns it on PostgreSQL);
 * undefined, read here.
 */
export async function matchingWebhooks(
  db: Handle,
  orgId: string,
  key: string,
  known?: string | null,
): Promise<readonly string[]> {
  const fingerprint = known === undefined ? await webhookFingerprint(db, orgId) : known;
  if (fingerprint === null) {
    cache.delete(orgId);
    return [];
  }
  let entry = cache.get(orgId);
  if (entry?.fingerprint !== fingerprint) {
    entry = { fingerprint, matcher: compilePatterns(await activeWebhookPatterns(db, orgId)) };
  }
  // Re-inserted on every use, so the Map's first key is the least recently used org.
  cache.delete(orgId);
  if (cache.size >= MAX_ORGS) cache.delete(cache.keys().next().value as string);
  cache.set(orgId, entry);
  return entry.matcher.match(key);
}
