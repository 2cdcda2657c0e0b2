import type { Kysely } from 'kysely';

/** Authorization requests as they are read here: untyped, like every migration's database. */
// biome-ignore lint/suspicious/noExplicitAny: a migration sees the schema of its time, not today's
type Untyped = Kysely<any>;

/**
 * The resource grant of an authorization request, decided once (issue 42): `resources` holds the
 * requested resource identifiers as a JSON array (was `resource`, space-separated), and
 * `resource_grant` the grant decided at the consent page, as JSON `[{resource, scopes}]` (null: not
 * decided yet; the code then decides it). Rows written before keep their resources, converted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const untyped = db as Untyped;
  await untyped.schema.alterTable('authorization_requests').addColumn('resources', 'text').execute();
  await untyped.schema.alterTable('authorization_requests').addColumn('resource_grant', 'text').execute();
  const rows: { id: string; resource: string }[] = await untyped
    .selectFrom('authorization_requests')
    .select(['id', 'resource'])
    .where('resource', 'is not', null)
    .execute();
  for (const row of rows) {
    const identifiers = row.resource.split(' ').filter((r) => r !== '');
    await untyped
      .updateTable('authorization_requests')
      .set({ resources: identifiers.length === 0 ? null : JSON.stringify(identifiers) })
      .where('id', '=', row.id)
      .execute();
  }
  await untyped.schema.alterTable('authorization_requests').dropColumn('resource').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const untyped = db as Untyped;
  await untyped.schema.alterTable('authorization_requests').addColumn('resource', 'text').execute();
  const rows: { id: string; resources: string }[] = await untyped
    .selectFrom('authorization_requests')
    .select(['id', 'resources'])
    .where('resources', 'is not', null)
    .execute();
  for (const row of rows) {
    const identifiers = JSON.parse(row.resources) as string[];
    await untyped
      .updateTable('authorization_requests')
      .set({ resource: identifiers.join(' ') })
      .where('id', '=', row.id)
      .execute();
  }
  await untyped.schema.alterTable('authorization_requests').dropColumn('resource_grant').execute();
  await untyped.schema.alterTable('authorization_requests').dropColumn('resources').execute();
}
