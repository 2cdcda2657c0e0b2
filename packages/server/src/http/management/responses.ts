import type { z } from 'zod';
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
/** An operation that reads an org, for its owners only (members 403). */
export const OWNERS_READ = { ...MANAGEMENT, scope: 'org:read', who: 'owners' } as const;
/** An operation that changes an org, for its owners only (members 403). */
export const OWNERS_WRITE = { ...MANAGEMENT, scope: 'org:write', who: 'owners' } as const;
/** A JSON request body of `schema`; one failing it is refused as `invalid_request`. */
export const jsonRequest = <S extends z.ZodType>(schema: S) =>
  ({ contentType: 'application/json', schema, errors: 'invalid_request' }) as const;
/** The refusals of an owners-only operation on one thing of an org: no token, a member, `notFound`. */
export const ownersRefusals = (notFound: ResponseSpec) =>
  ({ 401: unauthorized, 403: forbidden, 404: notFound }) as const;
/** The refusals of an owners-only change with a JSON body: an invalid body, then as ownersRefusals. */
export const changeRefusals = (notFound: ResponseSpec) =>
  ({ 400: invalid, ...ownersRefusals(notFound) }) as const;
/** The refusal of an operation members may call too: strangers and unknown orgs alike. */
export const noOrgOfMember = apiError('`not_found`: no such org, or the caller is not a member of it');
/** A paged list's answer, in the words of the organization, settings and member operations. */
export const pagedList = <S extends z.ZodType>(description: string, schema: S) => ({
  description,
  schema,
  headers: { link: 'RFC 8288 relations first, prev, next, last (absent when every entry fits on one page)' },
});
/** The refusal of the signed-in person's operations (user or console tokens). */
export const noToken = apiError('`unauthorized`: no valid token (`WWW-Authenticate: Bearer`)');
/** What every owners-only paged list of an org answers: one page of `schema`, or a refusal. */
export const listResponses = <S extends z.ZodType>(schema: S, description = 'one page, oldest first') => ({
  200: { description, schema, headers: PAGED },
  400: badQuery,
  ...ownersRefusals(noOrg),
});
/** A paged list's answer, in the words of the connection, log stream and webhook operations. */
export const linkedPageResponses = <S extends z.ZodType>(schema: S, notFound: ResponseSpec) => ({
  200: {
    description: 'oldest first; more pages in the `Link` header',
    schema,
    headers: { link: 'RFC 8288 first/prev/next/last page URLs, when there is more than one page' },
  },
  400: apiError('`invalid_query`: an unknown or repeated parameter, or a value out of range'),
  ...ownersRefusals(notFound),
});
