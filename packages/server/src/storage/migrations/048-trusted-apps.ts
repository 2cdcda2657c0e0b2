import type { Kysely } from 'kysely';
import { required, timestamps } from './column-parts.js';
import { dropTables, orgTable, tableIndex } from './table-parts.js';

/**
 * Enterprise-Managed Authorization (DESIGN §20): `trusted_apps`, the target applications an org, as
 * an enterprise identity provider, issues Identity Assertion JWT Authorization Grants (ID-JAGs) for.
 * One row is one target authorization server (`audience`, its issuer) as some of the org's clients
 * reach it: the client id it knows them by, the resources and scopes they may ask for (JSON arrays).
 * The accepting side needs no column: a connection's `accept_id_jag` lives in its OIDC settings, and
 * an ID-JAG's `jti` is recorded in the replay table DPoP proofs use (`dpop_proof_jtis`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'trusted_apps')
    .$call(required({ name: 'text', audience: 'text', target_client_id: 'text' }))
    // JSON arrays: the org's clients that may ask, the resources and the scopes they may ask for.
    .$call(required({ client_ids: 'text', resources: 'text', scopes: 'text' }))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'trusted_apps_org_audience', 'trusted_apps', ['org_id', 'audience']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['trusted_apps']);
}
