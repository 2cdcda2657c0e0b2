import type { Kysely } from 'kysely';
import { orgId, required } from './column-parts.js';

/**
 * The user's language (DESIGN §21): an org's default locale (null: English unless the browser
 * says otherwise), an authorization request's `ui_locales` as the supported locales it named
 * (space-separated, preferred first; null: none), and the org's own words for any message of the
 * catalog, one row per language and key (an ICU message checked on write).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('default_locale', 'text').execute();
  await db.schema.alterTable('authorization_requests').addColumn('ui_locales', 'text').execute();
  await db.schema
    .createTable('org_texts')
    .$call(orgId)
    .$call(required({ locale: 'text', key: 'text', message: 'text', updated_at: 'bigint' }))
    .addPrimaryKeyConstraint('org_texts_pk', ['org_id', 'locale', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('org_texts').execute();
  await db.schema.alterTable('authorization_requests').dropColumn('ui_locales').execute();
  await db.schema.alterTable('organizations').dropColumn('default_locale').execute();
}
