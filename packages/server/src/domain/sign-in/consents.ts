import type { Handle } from '../../storage/handle.js';
import { findConsent, upsertConsent } from '../../storage/repos/consents.js';
import { recordAudit } from '../audit/audit.js';
import { CONSOLE_CLIENT_ID } from '../directory/console-client.js';
import { isManagementScope } from '../directory/console-scopes.js';
import { ownScopes } from '../directory/scopes.js';
import { claimScopes } from '../tokens/openid-claims.js';
import type { AuthorizationRequest, Client, Org } from '../types.js';
import { promptsConsent } from './authorize/prompt.js';

const scopeList = (scope: string) => scope.split(' ').filter((s) => s !== '');

/**
 * The identity and management scopes the consent page lists for a request: those it asks for, then
 * those whose claims its `claims` parameter names (OIDC Core §5.5), so what is released by name
 * is what the person read and allowed.
 */
export function scopesToShow(request: Pick<AuthorizationRequest, 'scope' | 'claims'>): string[] {
  const asked = scopeList(ownScopes(request.scope));
  const named = [
    ...Object.keys(request.claims?.userinfo ?? {}),
    ...Object.keys(request.claims?.id_token ?? {}),
  ];
  return [...new Set([...asked, ...claimScopes(named)])];
}

/**
 * Whether the person must be asked (DESIGN §14):
 * - `prompt=consent`: always;
 * - the console's own client: never (the console does not ask its owner about the console);
 * - a client that is not first party (registered through /oauth/register, or known by its
 *   metadata document): every time, as the spec says;
 * - an org's own client (made by an owner through the CLI, the API or the console): never for the
 *   identity scopes nor for the resource scopes the person's roles allow (the others are dropped
 *   before anything is granted, DESIGN §15); the console's management scopes once per person, and
 *   again only when it asks for one not yet granted.
 */
export async function consentRequired(
  db: Handle,
  client: Client,
  userId: string,
  request: Pick<AuthorizationRequest, 'scope' | 'prompt'>,
): Promise<boolean> {
  if (promptsConsent(request.prompt)) return true;
  if (client.id === CONSOLE_CLIENT_ID) return false;
  if (!client.firstParty) return true;
  const beyondIdentity = scopeList(request.scope).filter(isManagementScope);
  if (beyondIdentity.length === 0) return false;
  const stored = await findConsent(db, userId, client.id);
  const granted = new Set(scopeList(stored?.scope ?? ''));
  return beyondIdentity.some((s) => !granted.has(s));
}

/** Stores what the person granted (the union with earlier grants), audited when it changes. */
export async function recordConsent(
  tx: Handle,
  org: Org,
  userId: string,
  client: Client,
  scope: string,
  now: number,
): Promise<void> {
  const before = await findConsent(tx, userId, client.id);
  const merged = [...new Set([...scopeList(before?.scope ?? ''), ...scopeList(scope)])].sort().join(' ');
  if (before && before.scope === merged) return;
  await upsertConsent(tx, {
    orgId: org.id,
    userId,
    clientId: client.id,
    scope: merged,
    createdAt: before?.createdAt ?? now,
    updatedAt: now,
  });
  const data = { userId, clientId: client.id, scope: merged };
  const actor = { kind: 'user', id: userId } as const;
  await recordAudit(tx, {
    orgId: org.id,
    entity: 'consent',
    verb: before ? 'updated' : 'created',
    actor,
    at: now,
    data,
    ...(before ? { previous: { ...data, scope: before.scope } } : {}),
  });
}
