import { type Kysely, sql } from 'kysely';
import { belongsTo, lifespan, required, timestamps } from './column-parts.js';
import { dropTables, expiryIndex, keyedTable, orgTable, tableIndex } from './table-parts.js';

/**
 * Enterprise sign-in (DESIGN §17). `connections`: an org's upstream identity providers, OIDC or
 * SAML; `settings` is the JSON of what is not secret (issuer, client id, scopes; or the IdP's
 * entity id, SSO URL and certificates), `sealed_secret` the OIDC client secret sealed like the
 * signing keys (null for SAML). `domains` and `default_roles` are JSON arrays.
 *
 * `federated_identities` links a person at a connection (its `sub` or NameID) to a user of the
 * org, once: a second sign-in finds the same user.
 *
 * `federation_requests` holds each sign-in sent upstream, as the SHA-256 of its state (OIDC) or
 * of its AuthnRequest id (SAML, the `InResponseTo` the answer must carry): single use, short
 * lived, with the PKCE verifier and nonce sealed. `saml_assertion_ids` remembers every accepted
 * assertion's id until it would have expired anyway, so an assertion is never accepted twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'connections')
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('oidc', 'saml')`))
    .$call(
      required({ name: 'text', domains: 'text', jit: 'integer', default_roles: 'text', settings: 'text' }),
    )
    .addColumn('sealed_secret', 'text')
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'connections_org', 'connections', ['org_id']);
  await db.schema
    .createTable('federated_identities')
    .addColumn('connection_id', 'text', belongsTo('connections.id'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('federated_identities_pk', ['connection_id', 'subject'])
    .execute();
  await tableIndex(db, 'federated_identities_user', 'federated_identities', ['user_id']);
  await keyedTable(db, 'federation_requests', 'key_hash')
    .addColumn('connection_id', 'text', belongsTo('connections.id'))
    .addColumn('request_id', 'text')
    .addColumn('sealed_data', 'text', (c) => c.notNull())
    .$call(lifespan)
    .execute();
  await expiryIndex(db, 'federation_requests_expires', 'federation_requests');
  await db.schema
    .createTable('saml_assertion_ids')
    .addColumn('connection_id', 'text', belongsTo('connections.id'))
    .$call(required({ assertion_id: 'text', expires_at: 'bigint' }))
    .addPrimaryKeyConstraint('saml_assertion_ids_pk', ['connection_id', 'assertion_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['saml_assertion_ids', 'federation_requests', 'federated_identities', 'connections']);
}
