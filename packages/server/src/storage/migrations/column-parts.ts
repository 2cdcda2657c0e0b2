import type { ColumnBuilderCallback, ColumnDataType, CreateTableBuilder } from 'kysely';

/*
 * The columns many tables share, written once (table-parts.ts holds the tables and indexes).
 * Migrations that have already run on installed databases use them: what each makes must never
 * change (a table that needs another shape writes its columns out).
 */

/** A column naming the row its own row goes with (`table.column`): not null, deleted with it. */
export const belongsTo =
  (target: string): ColumnBuilderCallback =>
  (c) =>
    c.notNull().references(target).onDelete('cascade');

/** `org_id`, the org a row belongs to: deleting the org deletes the row. */
export const orgId = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table.addColumn('org_id', 'text', belongsTo('organizations.id'));

/**
 * Columns that always hold a value (`not null`), added in the order given:
 * `.$call(required({ key: 'text', window_start: 'bigint' }))`.
 */
export const required =
  <K extends string>(columns: Record<K, ColumnDataType>) =>
  <T extends string, C extends string>(table: CreateTableBuilder<T, C>): CreateTableBuilder<T, C | K> => {
    let built: CreateTableBuilder<T, C | K> = table;
    for (const [name, type] of Object.entries<ColumnDataType>(columns))
      built = built.addColumn(name as K, type, (c) => c.notNull());
    return built;
  };

/** `created_at` and `updated_at`, epoch ms. */
export const timestamps = required({ created_at: 'bigint', updated_at: 'bigint' });

/** A short-lived row's `created_at` and `expires_at`, epoch ms (see expiryIndex in table-parts.ts). */
export const lifespan = required({ created_at: 'bigint', expires_at: 'bigint' });

/** A single-use row's lifespan, then `used_at`: null until the one use that consumes it, epoch ms. */
export const singleUse = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table.$call(lifespan).addColumn('used_at', 'bigint');
