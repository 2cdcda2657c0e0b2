import { optionalText, record, text } from './checks.js';
import { type DpopContext, sendCall } from './dpop-send.js';
import { type Call, send, type Target } from './http.js';
import { parseTokenSet, type TokenSet } from './records.js';
import { expectJson, expectSuccess } from './responses.js';

/**
 * `token.authorizationCode` input: the code from the redirect, the same `redirectUri` the authorization
 * request named, the PKCE verifier, and the secret of a confidential client.
 *
 * @example
 * ```ts
 * const params: AuthorizationCodeParams = { code, redirectUri: 'https://app.example.com/callback', codeVerifier };
 * ```
 */
export interface AuthorizationCodeParams {
  code: string;
  redirectUri: string;
  codeVerifier?: string;
  clientSecret?: string;
  /**
   * RFC 8707: which of the resources the authorization request named this token is for (its `aud`
   * then includes it, and its `scope` is that resource's; DESIGN §15). Absent: the first one.
   */
  resource?: string;
}

/**
 * `token.refresh` input.
 *
 * @example
 * ```ts
 * const params: RefreshParams = { refreshToken: tokens.refreshToken ?? '' };
 * ```
 */
export interface RefreshParams {
  refreshToken: string;
  clientSecret?: string;
  /** RFC 8707: a resource of the grant, for an access token to that API. */
  resource?: string;
  /** Space-separated: a narrower scope than the grant's; never a wider one. */
  scope?: string;
}

/**
 * `token.switchTenant` input: the current access token and the tenant to act in next. `clientSecret`
 * goes beyond the spec's table: a confidential client authenticates on every token request.
 *
 * @example
 * ```ts
 * const params: SwitchTenantParams = { accessToken: tokens.accessToken, tenantId: 'tnt_8f2k' };
 * ```
 */
export interface SwitchTenantParams {
  accessToken: string;
  tenantId: string;
  clientSecret?: string;
}

/**
 * `revoke` input: the refresh token whose session ends. `clientSecret`, beyond the spec's table, is for
 * confidential clients, which authenticate at the revocation endpoint too (RFC 7009 §2.1).
 *
 * @example
 * ```ts
 * const params: RevokeParams = { token: tokens.refreshToken ?? '' };
 * ```
 */
export interface RevokeParams {
  token: string;
  clientSecret?: string;
}

/**
 * `token.clientCredentials` input: the confidential client asking for a machine token.
 *
 * @example
 * ```ts
 * const params: ClientCredentialsParams = { clientId: 'cli_billing', clientSecret: process.env.SECRET ?? '' };
 * ```
 */
export interface ClientCredentialsParams {
  clientId: string;
  clientSecret: string;
  /**
   * RFC 8707: the API the machine token is for; its `aud` is then `[clientId, resource]` and its `scope`
   * what the client is permitted there (DESIGN §15). Absent: the spec's machine token.
   */
  resource?: string;
  /** Space-separated scopes of `resource`. */
  scope?: string;
}

/**
 * The token requests of `POST /oauth/token`, one per grant type. Every one sends `client_id`; a
 * client secret only ever travels in the form body (client_secret_post), never in a URL or header.
 *
 * @example
 * ```ts
 * const tokens = await sdk.token.refresh({ refreshToken });
 * ```
 */
export interface TokenRequests {
  authorizationCode(params: AuthorizationCodeParams): Promise<TokenSet>;
  refresh(params: RefreshParams): Promise<TokenSet>;
  switchTenant(params: SwitchTenantParams): Promise<TokenSet>;
  clientCredentials(params: ClientCredentialsParams): Promise<TokenSet>;
}

/** client_secret_post: the client asking, and the secret of a confidential one (only ever in the body). */
interface ClientAuth {
  readonly clientId: string;
  readonly clientSecret: string | undefined;
}

/**
 * A form POST authenticated by `auth`; `secrets` are the sent values no error may show, the client
 * secret added to them. `undefined` fields are left out of the form.
 */
function formCall(
  path: string,
  fields: Record<string, string | undefined>,
  auth: ClientAuth,
  secrets: (string | undefined)[],
): Call {
  return {
    method: 'POST',
    path,
    form: { ...fields, client_id: auth.clientId, client_secret: auth.clientSecret },
    secrets: [...secrets, auth.clientSecret].filter((s): s is string => s !== undefined),
  };
}

async function grant(
  target: Target,
  dpop: DpopContext | undefined,
  fields: Record<string, string | undefined>,
  auth: ClientAuth,
  secrets: (string | undefined)[],
): Promise<TokenSet> {
  const call = formCall('/oauth/token', fields, auth, secrets);
  return expectJson(call, await sendCall(target, call, dpop), parseTokenSet, 'a token response');
}

/** This SDK's client, with the optional `clientSecret` of `p` when it is a confidential one. */
function sdkClient(where: string, clientId: string, p: Record<string, unknown>): ClientAuth {
  return { clientId, clientSecret: optionalText(where, 'clientSecret', p.clientSecret) };
}

/**
 * The token requests for one client; with `dpop`, each carries a DPoP proof (RFC 9449 §5), so the
 * tokens are bound to the SDK's key.
 *
 * @example
 * ```ts
 * const token = tokenRequests(target, 'cli_web', DEFAULT_SWITCH_TENANT_GRANT);
 * ```
 */
export function tokenRequests(
  target: Target,
  clientId: string,
  switchTenantGrant: string,
  dpop?: DpopContext,
): TokenRequests {
  return Object.freeze({
    async authorizationCode(params: AuthorizationCodeParams) {
      const where = 'token.authorizationCode';
      const p = record(where, 'params', params);
      const code = text(where, 'code', p.code);
      const codeVerifier = optionalText(where, 'codeVerifier', p.codeVerifier);
      const fields = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: text(where, 'redirectUri', p.redirectUri),
        code_verifier: codeVerifier,
        resource: optionalText(where, 'resource', p.resource),
      };
      return grant(target, dpop, fields, sdkClient(where, clientId, p), [code, codeVerifier]);
    },
    async refresh(params: RefreshParams) {
      const where = 'token.refresh';
      const p = record(where, 'params', params);
      const refreshToken = text(where, 'refreshToken', p.refreshToken);
      const fields = {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        resource: optionalText(where, 'resource', p.resource),
        scope: optionalText(where, 'scope', p.scope),
      };
      return grant(target, dpop, fields, sdkClient(where, clientId, p), [refreshToken]);
    },
    async switchTenant(params: SwitchTenantParams) {
      const where = 'token.switchTenant';
      const p = record(where, 'params', params);
      const accessToken = text(where, 'accessToken', p.accessToken);
      const fields = {
        grant_type: switchTenantGrant,
        access_token: accessToken,
        tenant_id: text(where, 'tenantId', p.tenantId),
      };
      return grant(target, dpop, fields, sdkClient(where, clientId, p), [accessToken]);
    },
    async clientCredentials(params: ClientCredentialsParams) {
      const where = 'token.clientCredentials';
      const p = record(where, 'params', params);
      const auth = {
        clientId: text(where, 'clientId', p.clientId),
        clientSecret: text(where, 'clientSecret', p.clientSecret),
      };
      const fields = {
        grant_type: 'client_credentials',
        resource: optionalText(where, 'resource', p.resource),
        scope: optionalText(where, 'scope', p.scope),
      };
      return grant(target, dpop, fields, auth, []);
    },
  });
}

/**
 * Revokes a refresh token (RFC 7009), which ends its sign-in session. Resolves to `undefined`.
 *
 * @example
 * ```ts
 * await revokeToken(target, 'cli_web', { token: refreshToken });
 * ```
 */
export async function revokeToken(target: Target, clientId: string, params: RevokeParams): Promise<void> {
  const p = record('revoke', 'params', params);
  const token = text('revoke', 'token', p.token);
  const call = formCall('/oauth/revoke', { token }, sdkClient('revoke', clientId, p), [token]);
  await expectSuccess(call, await send(target, call));
}
