import type { FastifyRequest } from 'fastify';
import type { ErrorSituation, ServiceError } from '../../domain/errors.js';

/** The SCIM API's paths (on every org host, under the org's issuer). */
export const SCIM_PREFIX = '/scim/v2/';

/** Whether the request is for the SCIM API, whose errors are RFC 7644 §3.12's. */
export function isScimRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions?.url ?? request.url.split('?')[0] ?? '';
  return path.startsWith(SCIM_PREFIX) || path === SCIM_PREFIX.slice(0, -1);
}

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** RFC 7644 §3.12 Table 9: the `scimType` of each 400 and 409 situation. */
const SCIM_TYPES: Partial<Record<ErrorSituation, string>> = {
  'scim.filter.invalid': 'invalidFilter',
  'scim.filter.too_many': 'tooMany',
  'scim.attributes.invalid': 'invalidValue',
  'scim.paging.invalid': 'invalidValue',
  'scim.body.invalid': 'invalidSyntax',
  'scim.path.invalid': 'invalidPath',
  'scim.patch.no_target': 'noTarget',
  'scim.value.invalid': 'invalidValue',
  'scim.value.read_only': 'mutability',
  'scim.user.outside_domains': 'invalidValue',
  'scim.user.taken': 'uniqueness',
  'scim.user.address_held': 'uniqueness',
  // Two requests for one address at once: the second one's insert (directory/users.ts).
  'user.email.taken': 'uniqueness',
  'request.malformed': 'invalidSyntax',
};

/**
 * The SCIM error body (RFC 7644 §3.12): `schemas`, `status` as a string, `scimType` for a 400 or
 * 409 (a 400 that names none is `invalidValue`), `detail`.
 */
export function scimErrorBody(error: ServiceError, status: number): Record<string, unknown> {
  const scimType = SCIM_TYPES[error.situation] ?? (status === 400 ? 'invalidValue' : undefined);
  return {
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(scimType === undefined ? {} : { scimType }),
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  };
}
