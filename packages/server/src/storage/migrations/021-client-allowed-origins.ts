import { addedColumns } from './table-parts.js';

/**
 * The browser origins a client's pages may call the token, revocation and userinfo endpoints from
 * (CORS, DESIGN §14): a JSON array, or null for the default — the origins of the client's redirect
 * URIs, followed as they change. Every existing client keeps the default.
 */
export const { up, down } = addedColumns({ clients: { allowed_origins: 'text' } });
