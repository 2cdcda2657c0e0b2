/**
 * The rules of rows that expire (`expires_at`, epoch ms), for the statements of the repositories
 * whose tables have them: a row is live while it expires after now; a purge deletes what expired
 * before a bound. Each helper takes a statement on the table its repository names (one repository
 * per table) and adds its condition; the purges run it.
 *
 * Typed by the one method each calls, as Kysely cannot resolve a column through a generic table
 * (org-rows.ts does the same).
 */
export interface Expiring<Self> {
  where(column: 'expires_at', op: '>' | '<' | '<=', value: number): Self;
}

/** A statement that runs (a delete, an insert). */
export interface Executable {
  execute(): Promise<unknown>;
}

/** The rows still live at `now`: they expire after it. */
export const liveAt = <S extends Expiring<S>>(statement: S, now: number): S =>
  statement.where('expires_at', '>', now);

/**
 * Deletes the rows that expired before `expiredBefore` (a delete of the repository's table). Tables
 * whose rows stay a while past expiry (a late replay is still recognised) are given an earlier bound.
 */
export async function purgeExpired(rows: Expiring<Executable>, expiredBefore: number): Promise<void> {
  await rows.where('expires_at', '<', expiredBefore).execute();
}

/** Deletes the rows no longer live at `now` (liveAt's others): nothing can use them any more. */
export async function purgeNotLiveAt(rows: Expiring<Executable>, now: number): Promise<void> {
  await rows.where('expires_at', '<=', now).execute();
}
