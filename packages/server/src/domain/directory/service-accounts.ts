import { newSecret, sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import {
  deleteClientRow,
  findClient,
  findClients,
  insertClient,
  replaceClientSecret,
} from '../../storage/repos/clients.js';
import { findConsoleOrg } from '../../storage/repos/orgs.js';
import {
  findServiceAccountRow,
  insertServiceAccount,
  pageServiceAccountRows,
} from '../../storage/repos/service-accounts.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, windowOf } from '../paging.js';
import type { Actor, Client, Org, PublicKeySet, ServiceAccountBinding } from '../types.js';
import { checkClientJwks } from './client-jwks.js';
import { type ManagementScope, scopeList } from './console-scopes.js';
import type { DirectoryDeps } from './deps.js';
import { nextIssueTime, rotateSecret } from './secret-rotation.js';
import { checkName } from './validate.js';

/**
 * Service accounts (DESIGN §16): a confidential client of the console org, bound to one org whose
 * management API it calls with the scopes an owner chose for it — never `users:impersonate`.
 * Its client_credentials token comes from the console issuer (domain/tokens/service-account-tokens.ts);
 * what it changes is audited with the actor `{kind: 'client', id}`. The client row lives in the
 * console org, so the bound org's client list never shows it; its own audit entries
 * (`service_account.created|updated|deleted`) are the bound org's.
 */

/** The scopes a service account may hold. */
export const SERVICE_ACCOUNT_SCOPES: readonly ManagementScope[] = ['org:read', 'events:read', 'org:write'];

export interface ServiceAccount {
  /** Its client id (`cli_…`), the `client_id` of its token requests. */
  id: string;
  /** The org it is bound to. */
  orgId: string;
  name: string;
  scopes: ManagementScope[];
  /** Its public keys for private_key_jwt, when it has any. */
  jwks?: PublicKeySet;
  secretIssuedAt: number;
  createdAt: number;
}

export interface NewServiceAccount {
  name: string;
  scopes: readonly string[];
  jwks?: PublicKeySet;
}

const NO_SUCH_ACCOUNT = 'no such service account';

/** The scopes as stored: known ones, each once, in the order SERVICE_ACCOUNT_SCOPES lists them. */
export function checkServiceAccountScopes(scopes: readonly string[]): ManagementScope[] {
  for (const scope of scopes) {
    if (!SERVICE_ACCOUNT_SCOPES.includes(scope as ManagementScope)) {
      fail(
        'service_account.scope.unknown',
        `scopes: "${scope}" is not one of ${SERVICE_ACCOUNT_SCOPES.join(', ')}`,
      );
    }
  }
  const chosen = SERVICE_ACCOUNT_SCOPES.filter((s) => scopes.includes(s));
  if (chosen.length === 0) fail('service_account.scope.empty', 'scopes must name at least one scope');
  return chosen;
}

const accountOf = (row: ServiceAccountBinding, client: Client): ServiceAccount => ({
  id: client.id,
  orgId: row.orgId,
  name: client.name,
  scopes: scopeList(row.scope) as ManagementScope[],
  ...(client.jwks === undefined ? {} : { jwks: client.jwks }),
  secretIssuedAt: client.secretIssuedAt ?? client.createdAt,
  createdAt: row.createdAt,
});

/** What audit entries hold of a service account: never its secret, when it was issued. */
const snapshot = (a: ServiceAccount) => ({
  id: a.id,
  name: a.name,
  scopes: a.scopes,
  secretIssuedAt: new Date(a.secretIssuedAt).toISOString(),
  ...(a.jwks === undefined ? {} : { jwks: a.jwks }),
  createdAt: new Date(a.createdAt).toISOString(),
});

const audit = auditTrail('service_account', snapshot);

async function consoleOrg(db: Handle): Promise<Org> {
  return (await findConsoleOrg(db)) ?? fail('console.org.missing', 'the console organization is missing');
}

/** The service account `id` bound to `org`; 404 for any other id (another org's, a plain client's). */
async function orgAccount(
  db: Handle,
  org: Org,
  id: string,
): Promise<{ account: ServiceAccount; consoleId: string }> {
  const row = isIdOf('client', id) ? await findServiceAccountRow(db, id) : null;
  if (!row || row.orgId !== org.id) return fail('service_account.not_found', NO_SUCH_ACCOUNT);
  const home = await consoleOrg(db);
  const client = (await findClient(db, home.id, id)) ?? fail('service_account.not_found', NO_SUCH_ACCOUNT);
  return { account: accountOf(row, client), consoleId: home.id };
}

/**
 * Creates a service account bound to `org`: its client in the console org (client_credentials
 * only), with a 256-bit secret shown once and stored as its SHA-256. Audited in `org` as
 * `service_account.created`.
 */
export async function createServiceAccount(
  deps: DirectoryDeps,
  org: Org,
  input: NewServiceAccount,
  actor: Actor,
): Promise<{ account: ServiceAccount; secret: string }> {
  const name = checkName('name', input.name);
  const scopes = checkServiceAccountScopes(input.scopes);
  const jwks = input.jwks === undefined ? undefined : checkClientJwks('confidential', input.jwks);
  const secret = newSecret('tcs_');
  const now = clock.now();
  const account = await deps.unitOfWork.run(async (tx) => {
    const home = await consoleOrg(tx);
    const client: Client = {
      id: newResourceId('client'),
      orgId: home.id,
      name,
      kind: 'confidential',
      redirectUris: [],
      postLogoutRedirectUris: [],
      grantTypes: ['client_credentials'],
      firstParty: false,
      secretIssuedAt: now,
      ...(jwks === undefined ? {} : { jwks }),
      allowedOrigins: [],
      createdAt: now,
      updatedAt: now,
    };
    const row = { clientId: client.id, orgId: org.id, scope: scopes.join(' '), createdAt: now };
    await insertClient(tx, client, sha256(secret));
    await insertServiceAccount(tx, row);
    const created = accountOf(row, client);
    await audit.created(tx, { orgId: org.id, actor, at: now }, created);
    return created;
  });
  return { account, secret };
}

/** One page of the service accounts bound to `org`, oldest first (never a secret). */
export async function listServiceAccounts(
  deps: DirectoryDeps,
  org: Org,
  q: PageAsked,
): Promise<{ entries: ServiceAccount[]; total: number }> {
  const page = await pageServiceAccountRows(deps.store, org.id, windowOf(q));
  const home = await consoleOrg(deps.store);
  const clients = await findClients(
    deps.store,
    home.id,
    page.entries.map((row) => row.clientId),
  );
  const entries: ServiceAccount[] = [];
  for (const row of page.entries) {
    const client = clients.get(row.clientId);
    if (client) entries.push(accountOf(row, client));
  }
  return { entries, total: page.total };
}

/** One service account bound to `org`; 404 `not_found` for any other id. */
export async function getServiceAccount(deps: DirectoryDeps, org: Org, id: string): Promise<ServiceAccount> {
  return (await orgAccount(deps.store, org, id)).account;
}

/**
 * A new secret, shown once: the old one stops working when this commits (this process's cache of
 * client credentials is emptied at once, other nodes' on the change notification). Tokens issued
 * before keep working until they expire. Audited as `service_account.updated`.
 */
export async function rotateServiceAccountSecret(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<string> {
  return rotateSecret(deps, async (tx, hash) => {
    const { account: before, consoleId } = await orgAccount(tx, org, id);
    const now = nextIssueTime(before.secretIssuedAt);
    const after: ServiceAccount = { ...before, secretIssuedAt: now };
    const client =
      (await findClient(tx, consoleId, id)) ?? fail('service_account.not_found', NO_SUCH_ACCOUNT);
    await replaceClientSecret(tx, { ...client, secretIssuedAt: now, updatedAt: now }, hash);
    await audit.updated(tx, { orgId: org.id, actor, at: now }, before, after);
  });
}

/**
 * Deletes a service account: its client goes (the token endpoint no longer knows it) and the
 * tokens it holds stop being accepted at once (the management API checks the account exists).
 * Audited as `service_account.deleted`.
 */
export async function deleteServiceAccount(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    const { account, consoleId } = await orgAccount(tx, org, id);
    await deleteClientRow(tx, consoleId, id);
    await audit.deleted(tx, { orgId: org.id, actor, at: clock.now() }, account);
  });
  deps.credentials?.changed();
}
