import { addedColumns } from './table-parts.js';

/**
 * A rotated refresh token remembers the token issued in its place (`rotated_to`, its SHA-256), so
 * the loser of two concurrent refreshes can be told apart from a replay: presenting the token just
 * rotated, while its successor is still unused and within the grace, does not revoke the session.
 * Rows written before this migration have none: presenting them again is reuse, as before.
 */
export const { up, down } = addedColumns({ refresh_tokens: { rotated_to: 'text' } });
