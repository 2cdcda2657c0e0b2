import { addedColumns } from './table-parts.js';

/**
 * Request objects (RFC 9101, issue 44): `clients.request_object_signing_alg`, the one algorithm a
 * client's request objects must use (OIDC Dynamic Client Registration §2), `none` included; null:
 * any signed one, never `none` (domain/sign-in/authorize/request-object.ts).
 */
export const { up, down } = addedColumns({ clients: { request_object_signing_alg: 'text' } });
