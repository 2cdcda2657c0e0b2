/**
 * What most repositories' statements add to their own table's: which of an org's rows, and the
 * order of a list. Each helper takes a statement being built (a select, an update or a delete, on
 * the table its repository names: one repository per table) and returns it with its part added.
 *
 * Typed by the one method each calls, as Kysely cannot resolve a column through a generic table:
 * the values and the statement's own type are checked, the column names are the helper's.
 */
interface Filterable<Self, Column extends string> {
  where(column: Column, op: '=', value: string): Self;
}

interface Orderable<Self, Column extends string> {
  orderBy(column: Column): Self;
}

/** The org's row named `id`: another org's is never found, changed or deleted. */
export const orgRowById = <S extends Filterable<S, 'id' | 'org_id'>>(
  statement: S,
  orgId: string,
  id: string,
): S => statement.where('id', '=', id).where('org_id', '=', orgId);

/** The rows of an org's client. */
export const orgClientRows = <S extends Filterable<S, 'client_id' | 'org_id'>>(
  statement: S,
  orgId: string,
  clientId: string,
): S => statement.where('client_id', '=', clientId).where('org_id', '=', orgId);

/** The order most lists have: by creation, oldest first, then by id (so the order is total). */
export const oldestFirst = <S extends Orderable<S, 'created_at' | 'id'>>(statement: S): S =>
  statement.orderBy('created_at').orderBy('id');

/** Every row of the org, oldest first. */
export const orgRowsOldestFirst = <S extends Filterable<S, 'org_id'> & Orderable<S, 'created_at' | 'id'>>(
  statement: S,
  orgId: string,
): S => oldestFirst(statement.where('org_id', '=', orgId));
