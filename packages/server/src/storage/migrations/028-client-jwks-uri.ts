import { addedColumns } from './table-parts.js';

/**
 * `private_key_jwt` with keys published by the client (RFC 7591 `jwks_uri`, DESIGN §14):
 * `clients.jwks_uri`, the https URL of its JWK Set, fetched under the metadata-document policy;
 * null: none. A client has `jwks` or `jwks_uri`, never both (checked by the domain).
 */
export const { up, down } = addedColumns({ clients: { jwks_uri: 'text' } });
