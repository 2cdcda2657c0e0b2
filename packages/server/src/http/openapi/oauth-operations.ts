import { RegistrationRequest } from '../oauth/registration-request.js';
import {
  AuthorizeQuery,
  Discovery,
  Introspection,
  IntrospectRequest,
  Jwks,
  LogoutRequest,
  OAuthError,
  RegisteredClient,
  RevokeRequest,
  TokenRequest,
  TokenResponse,
  UserInfo,
} from './described-schemas.js';
import type { Operation, ResponseSpec } from './operation.js';

const FORM = 'application/x-www-form-urlencoded' as const;
const oauthError = (description: string): ResponseSpec => ({ description, schema: OAuthError });
const html = (description: string): ResponseSpec => ({ description, contentType: 'text/html' });

const discovery = (path: string, operationId: string, summary: string): Operation => ({
  method: 'get',
  path,
  operationId,
  summary,
  tag: 'discovery',
  hosts: 'every',
  auth: 'none',
  responses: { 200: { description: 'the issuer’s metadata', schema: Discovery } },
});

const logout = (method: 'get' | 'post'): Operation => ({
  method,
  path: '/oauth/logout',
  operationId: method === 'get' ? 'logout' : 'logoutForm',
  summary: 'End session endpoint (OIDC RP-Initiated Logout 1.0)',
  description:
    'Ends the browser’s sign-in (its login cookie) and the OAuth sessions opened from it, nothing ' +
    'else. With an `id_token_hint` naming the person signed in, at once; otherwise after the person ' +
    'confirms on a page. Redirects only with a hint of the client, or for a first-party client.',
  tag: 'oauth',
  hosts: 'every',
  auth: 'none',
  ...(method === 'get' ? { query: LogoutRequest } : { body: { contentType: FORM, schema: LogoutRequest } }),
  responses: {
    200: html('the confirmation page, or the “signed out” page when no redirect URI may be followed'),
    303: { description: 'to `post_logout_redirect_uri`, with `state`' },
    400: html('an invalid hint, client or redirect URI: an error page, never a redirect'),
  },
});

const userinfo = (method: 'get' | 'post'): Operation => ({
  method,
  path: '/oauth/userinfo',
  operationId: `userinfo${method === 'get' ? 'Get' : 'Post'}`,
  summary: 'OpenID Connect userinfo (OIDC Core §5.3)',
  tag: 'oauth',
  hosts: 'every',
  auth: 'user-or-console',
  responses: {
    200: { description: '`sub` and the claims the session’s scopes release', schema: UserInfo },
    401: oauthError('no valid token'),
    403: oauthError('`forbidden`: the session was not granted `openid` (`insufficient_scope`)'),
  },
});

/** OAuth 2.0 / OpenID Connect endpoints and discovery, on every org host. */
export const OAUTH_OPERATIONS: Operation[] = [
  discovery('/.well-known/openid-configuration', 'openidConfiguration', 'OpenID Connect discovery'),
  discovery('/.well-known/oauth-authorization-server', 'oauthServerMetadata', 'RFC 8414 metadata (same)'),
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'jwks',
    summary: 'The org’s signing keys (RFC 7517)',
    tag: 'discovery',
    hosts: 'every',
    auth: 'none',
    responses: { 200: { description: 'public keys; select by `kid`', schema: Jwks } },
  },
  {
    method: 'get',
    path: '/oauth/authorize',
    operationId: 'authorize',
    summary: 'Authorization endpoint (RFC 6749 §4.1, PKCE S256, OIDC Core §3.1.2.1)',
    description:
      'Unknown parameters are ignored (RFC 6749 §3.1); a repeated one is an error. `prompt`, ' +
      '`max_age`, `login_hint`, `id_token_hint` and `response_mode` as OIDC Core §3.1.2.1; ' +
      '`request` and `request_uri` are refused (`request_not_supported`, `request_uri_not_supported`).',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    query: AuthorizeQuery,
    responses: {
      200: html('`response_mode=form_post`: a page whose form posts the answer to the redirect URI'),
      302: {
        description:
          'to the login or consent page, or back to the client with `code` or `error` (in the query, ' +
          'or the fragment with `response_mode=fragment`)',
      },
      400: html('an invalid client or redirect URI: an error page, never a redirect'),
    },
  },
  {
    method: 'post',
    path: '/oauth/token',
    operationId: 'token',
    summary:
      'Token endpoint: every grant type (client_secret_basic, client_secret_post, private_key_jwt, none)',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: FORM, schema: TokenRequest },
    responses: {
      200: { description: 'a TokenSet', schema: TokenResponse },
      400: oauthError('RFC 6749 §5.2 errors'),
      401: oauthError('`invalid_client`'),
    },
  },
  {
    method: 'post',
    path: '/oauth/revoke',
    operationId: 'revoke',
    summary: 'Token revocation (RFC 7009): ends the token’s session',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: FORM, schema: RevokeRequest },
    responses: {
      200: { description: 'revoked, or nothing to revoke' },
      400: oauthError('a malformed request'),
      401: oauthError('`invalid_client`'),
    },
  },
  {
    method: 'post',
    path: '/oauth/introspect',
    operationId: 'introspect',
    summary: 'Token introspection (RFC 7662) for the org’s confidential clients',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: FORM, schema: IntrospectRequest },
    responses: {
      200: { description: '`{"active": true, …claims}` or `{"active": false}`', schema: Introspection },
      400: oauthError('a malformed request'),
      401: oauthError('`invalid_client`: no or failed client authentication, or a public client'),
    },
  },
  {
    method: 'post',
    path: '/oauth/register',
    operationId: 'registerClient',
    summary: 'Dynamic client registration (RFC 7591) of a public client',
    description:
      'On the console issuer always; on an org issuer only while the org’s `dynamic_registration` setting is on ' +
      '(the client then belongs to that org and signs its users in). Consent is always asked.',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    body: { contentType: 'application/json', schema: RegistrationRequest },
    responses: {
      201: { description: 'the registered client; never a secret', schema: RegisteredClient },
      400: oauthError('`invalid_redirect_uri` or `invalid_client_metadata`'),
      404: { description: 'on an org host whose `dynamic_registration` setting is off' },
      429: {
        description: '`rate_limited`: more than 10 registrations in the hour from this IP',
        schema: OAuthError,
        headers: { 'retry-after': 'seconds until a registration is accepted again' },
      },
    },
  },
  userinfo('get'),
  userinfo('post'),
  logout('get'),
  logout('post'),
];
