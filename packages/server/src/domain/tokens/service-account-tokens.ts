import { findServiceAccountRow } from '../../storage/repos/service-accounts.js';
import { scopeList } from '../directory/console-scopes.js';
import { fail } from '../errors.js';
import { isIdOf } from '../identifiers.js';
import type { Client, Org } from '../types.js';
import type { TokensDeps } from './deps.js';
import { signedAccessToken } from './signed-access-token.js';

/**
 * The `scope` of a service account's client_credentials token (DESIGN §16), from the console
 * issuer: the scopes its owner chose, or the part of them the request names (`scope`, RFC 6749
 * §4.4.2); a scope beyond them is `invalid_scope`. Null for every other client: its machine token
 * carries no scope, as before.
 */
export async function serviceAccountScope(
  deps: Pick<TokensDeps, 'store'>,
  org: Org,
  client: Client,
  requested: string | undefined,
): Promise<string | null> {
  if (!org.isConsole) return null;
  const account = await findServiceAccountRow(deps.store, client.id);
  if (!account) return null;
  const held = scopeList(account.scope);
  if (requested === undefined) return held.join(' ');
  const asked = scopeList(requested);
  const beyond = asked.find((s) => !held.includes(s));
  if (beyond !== undefined)
    fail('token.service_account.scope_refused', `this service account may not have the scope ${beyond}`);
  if (asked.length === 0) fail('token.service_account.scope_empty', 'scope names no scope');
  return held.filter((s) => asked.includes(s)).join(' ');
}

/** A verified service-account token: who calls, the org it is bound to, what it may do. */
export interface ServiceAccountAccess {
  clientId: string;
  /** The one org whose management API it may call. */
  orgId: string;
  /** Space-separated: the token's scopes that the account still holds. */
  scope: string;
}

/**
 * Verifies a service account's token presented to the management API on the console host: RS256
 * by a key of the console org, `iss` exact, `exp` in the future, `typ` client with `sub` = `aud` =
 * `client_id`, and — beyond the signature — a service account that still exists (a deleted one's
 * tokens stop at once). Its scope is what the token carries and the account still holds. Every
 * failure is null: the caller answers one generic 401.
 */
export async function verifyServiceAccountToken(
  deps: TokensDeps,
  consoleOrg: Org,
  token: string,
): Promise<ServiceAccountAccess | null> {
  const payload = await signedAccessToken(deps, consoleOrg, token, ['exp', 'sub', 'aud', 'jti', 'scope']);
  if (!payload) return null;
  const { typ, sub, aud, client_id: clientId, scope } = payload as Record<string, unknown>;
  if (typ !== 'client' || typeof sub !== 'string' || !isIdOf('client', sub)) return null;
  if (aud !== sub || clientId !== sub || typeof scope !== 'string') return null;
  const read = () => findServiceAccountRow(deps.store, sub);
  const account = deps.serviceAccounts ? await deps.serviceAccounts.get(sub, read) : await read();
  if (!account) return null;
  const held = scopeList(account.scope);
  return {
    clientId: sub,
    orgId: account.orgId,
    scope: scopeList(scope)
      .filter((s) => held.includes(s))
      .join(' '),
  };
}
