import { ApiError } from '../management/api-schemas.js';
import { OAuthError } from './described-schemas.js';
import type { ResponseSpec } from './operation.js';

/** The content type of the OAuth endpoints' form bodies. */
export const FORM = 'application/x-www-form-urlencoded' as const;

/** A documented error answer with the RFC 6749 §5.2 body. */
export const oauthError = (description: string): ResponseSpec => ({ description, schema: OAuthError });

/** The refusal of a request to a host that is no org's (http/org-routing.ts), in the API's words. */
export const noOrgAtHost: ResponseSpec = {
  description: '`not_found`: no organization at this host (or, with path issuers, at this address)',
  schema: ApiError,
};

/** A documented answer that is an HTML page (the authorization and logout endpoints'). */
export const htmlPage = (description: string): ResponseSpec => ({ description, contentType: 'text/html' });
