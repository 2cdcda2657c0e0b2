import type { InsertResult } from 'kysely';

/**
 * Runs an insert that does nothing on a conflict: true when it stored its row, false when the row
 * was there already (a replay, a second link, a concurrent twin: the database tells which came first).
 */
export async function insertedAnew(insert: { executeTakeFirst(): Promise<InsertResult> }): Promise<boolean> {
  const result = await insert.executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}
