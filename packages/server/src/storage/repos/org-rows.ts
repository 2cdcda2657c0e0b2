import type { SelectQueryBuilder, Simplify } from 'kysely';
import { type Expiring, liveAt } from './expiry.js';
import type { ListWindow } from './list-window.js';
import { OLDEST_FIRST, pageRows } from './paged-rows.js';

/**
 * What most repositories' statements add to their own table's: which of an org's rows, and the
 * order of a list. Each helper takes a statement being built (a select, an update or a delete, on
 * the table its repository names: one repository per table) and returns it with its part added;
 * pageOrgRows reads a window of it too.
 *
 * Typed by the one method each calls, as Kysely cannot resolve a column through a generic table:
 * the values and the statement's own type are checked, the column names are the helper's (a table
 * without them fails at the statement's first run, which every repository's tests make).
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

/**
 * The org's row keyed by this hash (`column`: a token's, a key's or a challenge's SHA-256), while it
 * is live at `now` (expiry.ts): what a link, a cookie or a single-use key finds or consumes.
 */
export const liveOrgRowByHash = <H extends string, S extends Filterable<S, H | 'org_id'> & Expiring<S>>(
  statement: S,
  column: H,
  hash: string,
  orgId: string,
  now: number,
): S => liveAt(statement.where(column, '=', hash).where('org_id', '=', orgId), now);

/** The order most lists have: by creation, oldest first, then by id (so the order is total). */
export const oldestFirst = <S extends Orderable<S, 'created_at' | 'id'>>(statement: S): S =>
  statement.orderBy('created_at').orderBy('id');

/** Every row of the org, oldest first. */
export const orgRowsOldestFirst = <S extends Filterable<S, 'org_id'> & Orderable<S, 'created_at' | 'id'>>(
  statement: S,
  orgId: string,
): S => oldestFirst(statement.where('org_id', '=', orgId));

/** One window of the org's rows, oldest first, and how many it has (paged-rows.ts). */
export function pageOrgRows<DB, TB extends keyof DB, O>(
  rows: SelectQueryBuilder<DB, TB, O>,
  orgId: string,
  window: ListWindow,
): Promise<{ rows: Simplify<O>[]; total: number }> {
  const ofOrg: Filterable<SelectQueryBuilder<DB, TB, O>, 'org_id'> = rows;
  return pageRows(ofOrg.where('org_id', '=', orgId), window, OLDEST_FIRST);
}
