import type { Db } from '../../storage/db.js';
import { findConsent, upsertConsent } from '../../storage/repos/consents.js';
import { recordAudit } from '../audit/audit.js';
import type { Client, Org } from '../types.js';

const scopeList = (scope: string) => scope.split(' ').filter((s) => s !== '');

/**
 * Clients registered through /oauth/register (not first party) ask every time. First-party
 * clients ask once per person, and again only when they request a scope not yet granted.
 */
export async function consentRequired(
  db: Db,
  client: Client,
  userId: string,
  scope: string,
): Promise<boolean> {
  if (!client.firstParty) return true;
  const stored = await findConsent(db, userId, client.id);
  if (!stored) return true;
  const granted = new Set(scopeList(stored.scope));
  return scopeList(scope).some((s) => !granted.has(s));
}

/** Stores what the person granted (the union with earlier grants), audited when it changes. */
export async function recordConsent(
  trx: Db,
  org: Org,
  userId: string,
  client: Client,
  scope: string,
  now: number,
): Promise<void> {
  const before = await findConsent(trx, userId, client.id);
  const merged = [...new Set([...scopeList(before?.scope ?? ''), ...scopeList(scope)])].sort().join(' ');
  if (before && before.scope === merged) return;
  await upsertConsent(trx, {
    org_id: org.id,
    user_id: userId,
    client_id: client.id,
    scope: merged,
    created_at: before?.created_at ?? now,
    updated_at: now,
  });
  const data = { userId, clientId: client.id, scope: merged };
  const actor = { kind: 'user', id: userId } as const;
  await recordAudit(trx, {
    orgId: org.id,
    entity: 'consent',
    verb: before ? 'updated' : 'created',
    actor,
    at: now,
    data,
    ...(before ? { previous: { ...data, scope: before.scope } } : {}),
  });
}
