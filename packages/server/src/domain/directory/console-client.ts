import { isUniqueViolation } from '../../storage/errors.js';
import { findClient, insertClient, updateClientRow } from '../../storage/repos/clients.js';
import { clock } from '../clock.js';
import { type Client, type Org, SYSTEM } from '../types.js';
import { clientAudit } from './clients.js';
import type { DirectoryDeps } from './deps.js';

/** The web console's client id: fixed, so the app needs no configuration to sign in. */
export const CONSOLE_CLIENT_ID = 'cli_console';

/** Where the console app (served at `{TESSERA_URL}/console/`) receives its code and lands after sign-out. */
export function consoleClientUris(baseUrl: string): {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
} {
  return {
    redirectUris: [`${baseUrl}/console/callback`],
    postLogoutRedirectUris: [`${baseUrl}/console/signed-out`],
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * The console's own client in the console org: first party and public (code + PKCE, refresh
 * rotation), its redirect URIs on the current TESSERA_URL. Made at the first start, and set back
 * to this shape at every start (a new TESSERA_URL moves its URIs); audited only when it changes.
 */
export async function ensureConsoleClient(deps: DirectoryDeps, consoleOrg: Org): Promise<Client> {
  const uris = consoleClientUris(deps.config.baseUrl);
  const now = clock.now();
  const wanted: Client = {
    id: CONSOLE_CLIENT_ID,
    orgId: consoleOrg.id,
    name: 'Tessera console',
    kind: 'public',
    ...uris,
    grantTypes: ['authorization_code', 'refresh_token'],
    firstParty: true,
    secretIssuedAt: null,
    // The default: the origins of its redirect URIs.
    allowedOrigins: null,
    createdAt: now,
    updatedAt: now,
  };
  const existing = await findClient(deps.store, consoleOrg.id, CONSOLE_CLIENT_ID);
  if (existing) {
    const same =
      existing.name === wanted.name &&
      sameList(existing.redirectUris, wanted.redirectUris) &&
      sameList(existing.postLogoutRedirectUris, wanted.postLogoutRedirectUris) &&
      sameList(existing.grantTypes, wanted.grantTypes);
    if (same) return existing;
    const updated: Client = { ...wanted, createdAt: existing.createdAt };
    await deps.unitOfWork.run(async (tx) => {
      await updateClientRow(tx, updated);
      await clientAudit.updated(tx, { orgId: consoleOrg.id, actor: SYSTEM, at: now }, existing, updated);
    });
    return updated;
  }
  try {
    await deps.unitOfWork.run(async (tx) => {
      await insertClient(tx, wanted, null);
      await clientAudit.created(tx, { orgId: consoleOrg.id, actor: SYSTEM, at: now }, wanted);
    });
  } catch (error) {
    // Another process made it first.
    if (!isUniqueViolation(error)) throw error;
  }
  return wanted;
}
