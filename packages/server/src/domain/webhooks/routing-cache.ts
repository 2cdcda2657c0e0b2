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

/** The ids of the org's active webhooks subscribed to `key`. */
export async function matchingWebhooks(db: Handle, orgId: string, key: string): Promise<readonly string[]> {
  const fingerprint = await webhookFingerprint(db, orgId);
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
