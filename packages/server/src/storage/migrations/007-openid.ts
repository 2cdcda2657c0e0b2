import { addedColumns } from './table-parts.js';

/**
 * OpenID Connect: the `nonce` of an authorization request travels with its code into the ID
 * token; `auth_time` is when the person actually signed in (the browser session's start), which
 * can be hours before the OAuth session opens, and every ID token of the session repeats it.
 * Rows written before this migration have no auth_time: their session's `created_at` stands in.
 */
export const { up, down } = addedColumns({
  authorization_requests: { nonce: 'text' },
  authorization_codes: { nonce: 'text' },
  oauth_sessions: { auth_time: 'bigint' },
});
