/**
 * Codes the SDK sets itself. Any other `code` is the server's own `error` field (`invalid_grant`,
 * `unauthorized`, `not_found`, `rate_limited`, …), passed through unchanged.
 *
 * | code | status | when |
 * |---|---|---|
 * | `network_error` | 0 | no HTTP answer: refused, reset, DNS failure, 30 s timeout, CORS refusal |
 * | `http_error` | the HTTP status | a non-2xx answer whose body is not JSON with a string `error` |
 * | `invalid_response` | the HTTP status | a 2xx answer whose body is not the record the call returns |
 * | `invalid_token` | 0 | `verify`: header not `at+jwt` or no `kid`, bad signature, not RS256, wrong `iss` or `aud`, no finite `exp`, too long, malformed |
 * | `token_expired` | 0 | `verify`: `exp` is in the past |
 * | `jwks_unavailable` | 0 | `verify`: the key set could not be fetched or read |
 *
 * @example
 * ```ts
 * const retryable: SdkErrorCode[] = ['network_error', 'jwks_unavailable'];
 * ```
 */
export type SdkErrorCode =
  | 'network_error'
  | 'http_error'
  | 'invalid_response'
  | 'invalid_token'
  | 'token_expired'
  | 'jwks_unavailable';

/**
 * The one error every SDK call throws (caller misuse, such as a missing argument, is a `TypeError`).
 * It never carries anything the call was given — no access or refresh token, authorization code, code
 * verifier or client secret — in its message, its fields or its `cause`: server text that echoes one
 * is redacted, and network failures keep only the failure's name and errno code.
 *
 * @example
 * ```ts
 * import { SdkError } from '@tessera/sdk';
 *
 * try {
 *   await sdk.users.me(accessToken);
 * } catch (err) {
 *   if (err instanceof SdkError && err.status === 401) {
 *     tokens = await sdk.token.refresh({ refreshToken: tokens.refreshToken ?? '' });
 *   } else throw err;
 * }
 * ```
 */
export class SdkError extends Error {
  override readonly name = 'SdkError';
  /** The HTTP status of the answer; `0` when there was none (network failure, `verify`). */
  readonly status: number;
  /** The server's `error` when the body was JSON carrying one, else one of {@link SdkErrorCode}. */
  readonly code: SdkErrorCode | (string & {});
  /** The server's `error_detail` (or OAuth `error_description`) when given, or the SDK's own reason. */
  readonly detail: string | undefined;
  /**
   * The server's stable code for the situation (its `Tessera-Error-Code` header, such as
   * `token.refresh.reused`), when it sent one; several situations share one `code`. Match on this,
   * not on `detail`'s words.
   */
  readonly situation: string | undefined;

  constructor(
    message: string,
    fields: {
      status: number;
      code: SdkErrorCode | (string & {});
      detail?: string | undefined;
      situation?: string | undefined;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.status = fields.status;
    this.code = fields.code;
    this.detail = fields.detail;
    this.situation = fields.situation;
  }
}

const REDACTED = '[redacted]';
const MAX_SERVER_TEXT = 500;

/**
 * Server text made safe to keep in an error: every value the call was given is cut out, and the text
 * is bounded. The server promises never to echo them; this makes the SDK's promise not depend on it.
 *
 * @example
 * ```ts
 * redact('bad code abc', ['abc']); // 'bad code [redacted]'
 * ```
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== '') out = out.split(secret).join(REDACTED);
  }
  // Cut after redacting, so a truncation can never leave the head of a secret behind.
  return out.length > MAX_SERVER_TEXT ? `${out.slice(0, MAX_SERVER_TEXT)}…` : out;
}

/**
 * A stand-in `cause` for a failure thrown by fetch or jose: only the failure's name and errno-style
 * code survive, because the original may hold request details (a URL, a body, a token's claims).
 *
 * @example
 * ```ts
 * safeCause(new TypeError('fetch failed', { cause: Object.assign(new Error(), { code: 'ECONNREFUSED' }) }));
 * // Error: Error (ECONNREFUSED)
 * ```
 */
export function safeCause(failure: unknown): Error {
  const inner = failure instanceof Error && failure.cause instanceof Error ? failure.cause : failure;
  if (!(inner instanceof Error)) return new Error('unknown failure');
  const name = /^[A-Za-z]{1,40}$/.test(inner.name) ? inner.name : 'Error';
  const code = (inner as { code?: unknown }).code;
  return new Error(typeof code === 'string' && /^[A-Z0-9_]{1,40}$/i.test(code) ? `${name} (${code})` : name);
}
