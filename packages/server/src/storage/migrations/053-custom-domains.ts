import type { Kysely } from 'kysely';
import { required } from './column-parts.js';
import { dropTables, orgTable, tableIndex } from './table-parts.js';

/**
 * The org's own domain (DESIGN §21): `org_domains`, the host names an org's owners added, each with
 * the random token its `_tessera-challenge.<name>` TXT record must hold; `verified_name` is the name
 * once the record was found, and its unique index is what lets one org only verify a name (two
 * verifying at once: one insert of the name wins). `organizations.issuer_domain` is the verified
 * name the org's issuer lives on (null: Tessera's own host for the org). `org_former_issuers` keeps
 * each host the issuer moved away from, and until when it still serves discovery, the key set and
 * introspection for the tokens it issued (`domain` null: the org's host under Tessera).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'org_domains')
    .$call(required({ name: 'text', token: 'text' }))
    .addColumn('verified_name', 'text')
    .addColumn('verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await tableIndex(db, 'org_domains_org_name', 'org_domains', ['org_id', 'name'], { unique: true });
  await tableIndex(db, 'org_domains_verified_name', 'org_domains', ['verified_name'], { unique: true });
  await db.schema.alterTable('organizations').addColumn('issuer_domain', 'text').execute();
  await orgTable(db, 'org_former_issuers')
    .addColumn('domain', 'text')
    .$call(required({ moved_at: 'bigint', serves_until: 'bigint' }))
    .execute();
  await tableIndex(db, 'org_former_issuers_org', 'org_former_issuers', ['org_id']);
  await tableIndex(db, 'org_former_issuers_domain', 'org_former_issuers', ['domain']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['org_former_issuers']);
  await db.schema.alterTable('organizations').dropColumn('issuer_domain').execute();
  await dropTables(db, ['org_domains']);
}
