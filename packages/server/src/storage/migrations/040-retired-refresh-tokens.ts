import { addedColumns } from './table-parts.js';

/**
 * A refresh token retired unused (issue 48): `refresh_tokens.retired_at`, set on the successor a
 * rotation issued when its predecessor is presented again within the reuse grace by the same client
 * (the answer carrying the successor was lost). A retired token is refused without revoking the
 * session: it was never received, so presenting it is no proof of theft. Null on every other row.
 */
export const { up, down } = addedColumns({ refresh_tokens: { retired_at: 'bigint' } });
