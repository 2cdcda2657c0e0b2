import type { Updateable } from 'kysely';
import type { Locale, Org, SigningAlgorithm } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { dialectOf, opened } from '../opened.js';
import type { OrganizationsTable } from '../schema.js';
import { columnMap, flag, json, textOf, textOrNullOf, timestampColumns } from './column-map.js';
import { insertOf } from './table-records.js';

const orgColumns = columnMap<OrganizationsTable, Org>()({
  id: 'id',
  slug: 'slug',
  name: 'name',
  is_console: ['isConsole', flag],
  dynamic_registration: ['dynamicRegistration', flag],
  metadata_documents: ['metadataDocuments', flag],
  sign_up: 'signUp',
  sign_up_domains: ['signUpDomains', json<string[]>()],
  require_pushed_authorization_requests: ['requirePushedRequests', flag],
  id_token_signing_alg: ['idTokenSigningAlg', textOf<SigningAlgorithm>()],
  default_locale: ['defaultLocale', textOrNullOf<Locale>()],
  issuer_domain: 'issuerDomain',
  ...timestampColumns,
});
const toOrg = orgColumns.toRecord;

export const insertOrg = insertOf('organizations', orgColumns);

export async function findOrgBySlug(store: Handle, slug: string): Promise<Org | null> {
  const db = opened(store);
  const row = await db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  return row ? toOrg(row) : null;
}

export async function findOrgById(store: Handle, id: string): Promise<Org | null> {
  const db = opened(store);
  const row = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toOrg(row) : null;
}

export async function findConsoleOrg(store: Handle): Promise<Org | null> {
  const db = opened(store);
  const row = await db.selectFrom('organizations').selectAll().where('is_console', '=', 1).executeTakeFirst();
  return row ? toOrg(row) : null;
}

/** Sets some of the org's columns and its `updated_at`: what each of the writes below changes. */
async function updateOrgColumns(
  store: Handle,
  id: string,
  columns: Updateable<OrganizationsTable>,
  updatedAt: number,
): Promise<void> {
  await opened(store)
    .updateTable('organizations')
    .set({ ...columns, updated_at: updatedAt })
    .where('id', '=', id)
    .execute();
}

export async function updateOrgName(
  store: Handle,
  id: string,
  name: string,
  updatedAt: number,
): Promise<void> {
  await updateOrgColumns(store, id, { name }, updatedAt);
}

/** Sets what the org signs its ID tokens and the rest the spec does not fix with (DESIGN §20). */
export async function updateOrgIdTokenAlg(
  store: Handle,
  id: string,
  alg: SigningAlgorithm,
  updatedAt: number,
): Promise<void> {
  await updateOrgColumns(store, id, { id_token_signing_alg: alg }, updatedAt);
}

/** Turns the org issuer's registration features on or off (DESIGN §15). */
export async function updateOrgRegistration(
  store: Handle,
  id: string,
  change: { dynamicRegistration: boolean; metadataDocuments: boolean },
  updatedAt: number,
): Promise<void> {
  const columns = {
    dynamic_registration: change.dynamicRegistration ? 1 : 0,
    metadata_documents: change.metadataDocuments ? 1 : 0,
  };
  await updateOrgColumns(store, id, columns, updatedAt);
}

/** Whether every client of the org must push its authorization requests (RFC 9126). */
export async function updateOrgPushedRequests(
  store: Handle,
  id: string,
  required: boolean,
  updatedAt: number,
): Promise<void> {
  await updateOrgColumns(store, id, { require_pushed_authorization_requests: required ? 1 : 0 }, updatedAt);
}

/** The language the org's pages and mails speak when nothing else decides it (null: English). */
export async function updateOrgDefaultLocale(
  store: Handle,
  id: string,
  locale: Locale | null,
  updatedAt: number,
): Promise<void> {
  await updateOrgColumns(store, id, { default_locale: locale }, updatedAt);
}

/** Stores the org's sign-up policy and the domains `domains` lets sign up. */
export async function updateOrgSignUp(
  store: Handle,
  id: string,
  policy: Pick<Org, 'signUp' | 'signUpDomains'>,
  updatedAt: number,
): Promise<void> {
  const columns = { sign_up: policy.signUp, sign_up_domains: JSON.stringify(policy.signUpDomains) };
  await updateOrgColumns(store, id, columns, updatedAt);
}

/**
 * Holds the org's row until the transaction ends (PostgreSQL), so changes that check the org's
 * memberships first (its last owner) run one after another. SQLite transactions already do.
 */
export async function lockOrg(store: Handle, id: string): Promise<void> {
  const db = opened(store);
  if (dialectOf(store) === 'postgres') {
    await db.selectFrom('organizations').select('id').where('id', '=', id).forUpdate().execute();
  }
}

/** Sets the host the org's issuer lives on (null: Tessera's host for it). */
export async function setIssuerDomain(
  store: Handle,
  orgId: string,
  domain: string | null,
  updatedAt: number,
): Promise<void> {
  await updateOrgColumns(store, orgId, { issuer_domain: domain }, updatedAt);
}

/** The org whose issuer lives on `domain` (a verified custom domain), or null. */
export async function findOrgByIssuerDomain(store: Handle, domain: string): Promise<Org | null> {
  const row = await opened(store)
    .selectFrom('organizations')
    .select('id')
    .where('issuer_domain', '=', domain)
    .executeTakeFirst();
  return row ? findOrgById(store, row.id) : null;
}
