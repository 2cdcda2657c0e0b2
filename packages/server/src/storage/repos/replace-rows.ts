import type { Executable } from './expiry.js';

/**
 * Replaces the rows an owner has (a role's permissions, a user's roles, a group's roles…): runs the
 * delete of the owner's rows, then the insert of the new ones, none when there are none (an insert
 * of no rows is no statement). Each repository names its own table in both statements.
 */
export async function replaceRows<Row>(
  ownersRows: Executable,
  rows: Row[],
  insert: (rows: Row[]) => Executable,
): Promise<void> {
  await ownersRows.execute();
  if (rows.length > 0) await insert(rows).execute();
}
