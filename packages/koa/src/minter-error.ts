/**
 * Codes the minter sets itself; any other `code` is the token endpoint's own OAuth `error`
 * (`invalid_client`, `unauthorized_client`, …).
 *
 * | code | when |
 * |---|---|
 * | `network_error` | no HTTP answer: connection failed, timed out, or the endpoint redirected |
 * | `http_error` | a non-2xx answer without a usable OAuth `error` field |
 * | `invalid_response` | a 2xx answer without a JWT `access_token` or without an expiry |
 * | `invalid_issuer` | the minted token's `iss` is not the configured `issuer` |
 *
 * @example
 * ```ts
 * const retryLater = (code: TokenMinterErrorCode | string) => code === 'network_error';
 * ```
 */
export type TokenMinterErrorCode = 'network_error' | 'http_error' | 'invalid_response' | 'invalid_issuer';

/**
 * Why a machine token could not be minted. It never carries the client secret or a token: not in its
 * message, its properties or its `cause`.
 *
 * @example
 * ```ts
 * import { TokenMinterError } from '@tessera/koa';
 *
 * try {
 *   await minter.token();
 * } catch (err) {
 *   if (err instanceof TokenMinterError && err.code === 'invalid_client') {
 *     console.error('the client secret was rejected; rotate the configured one');
 *   }
 * }
 * ```
 */
export class TokenMinterError extends Error {
  override readonly name = 'TokenMinterError';
  /** The token endpoint's HTTP status, or `null` when there was no HTTP answer. */
  readonly status: number | null;
  /** The server's OAuth `error` code, or one of {@link TokenMinterErrorCode}. */
  readonly code: TokenMinterErrorCode | (string & {});

  constructor(
    message: string,
    status: number | null,
    code: TokenMinterErrorCode | (string & {}),
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = status;
    this.code = code;
  }
}
