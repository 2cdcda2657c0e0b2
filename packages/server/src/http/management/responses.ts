import type { ResponseSpec } from '../openapi/operation.js';
import { ApiError } from './api-schemas.js';

/** The words the management operations' declarations share: path parameters and refusals. */
export const ORG = { org: 'the org id (`org_…`) or slug' } as const;
export const apiError = (description: string): ResponseSpec => ({ description, schema: ApiError });
export const unauthorized = apiError('no valid console token (`WWW-Authenticate: Bearer`)');
export const forbidden = apiError('`forbidden`: the caller is a member but not an owner of the org');
export const noOrg = apiError('`not_found`: no such org, or the token cannot manage it');
export const invalid = apiError('`invalid_request`: an unknown field, or a value failing validation (named)');
export const badQuery = apiError('`invalid_query`: unknown or repeated parameter, or value out of range');
export const PAGED = {
  link: 'RFC 8288 relations first, prev, next, last; absent when every entry fits on one page',
};
/** The fields every console-host management operation shares. */
export const MANAGEMENT = { tag: 'management', hosts: 'console', auth: 'console' } as const;
/** The refusal of an operation members may call too: strangers and unknown orgs alike. */
export const noOrgOfMember = apiError('`not_found`: no such org, or the caller is not a member of it');
/** A paged list's answer, in the words of the organization, settings and member operations. */
export const pagedList = (description: string, schema: ResponseSpec['schema']): ResponseSpec => ({
  description,
  schema,
  headers: { link: 'RFC 8288 relations first, prev, next, last (absent when every entry fits on one page)' },
});
/** The refusal of the signed-in person's operations (user or console tokens). */
export const noToken = apiError('`unauthorized`: no valid token (`WWW-Authenticate: Bearer`)');
