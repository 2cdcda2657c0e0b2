import { ERROR_CODES, type ErrorSituation } from './error-codes.js';

/**
 * Every error the service can answer with, declared once with its status and body family.
 * OAuth endpoints answer `{error, error_description}` (RFC 6749 §5.2, RFC 7591 §3.2.2);
 * the management and user APIs answer `{error, error_detail}` (spec "Errors").
 */
const REGISTRY = {
  invalid_request: { status: 400, family: 'oauth' },
  invalid_client: { status: 401, family: 'oauth' },
  invalid_grant: { status: 400, family: 'oauth' },
  unauthorized_client: { status: 400, family: 'oauth' },
  unsupported_grant_type: { status: 400, family: 'oauth' },
  unsupported_response_type: { status: 400, family: 'oauth' },
  invalid_scope: { status: 400, family: 'oauth' },
  invalid_target: { status: 400, family: 'oauth' },
  // RFC 9449 §5, §8: a DPoP proof refused at the token endpoint, or one without the server's nonce.
  invalid_dpop_proof: { status: 400, family: 'oauth' },
  use_dpop_nonce: { status: 400, family: 'oauth' },
  // OIDC Core §3.1.2.6, RFC 9101 §6.3: a request object refused (only sent back by redirect):
  // unsigned ones, by reference, or one that does not verify.
  request_not_supported: { status: 400, family: 'oauth' },
  request_uri_not_supported: { status: 400, family: 'oauth' },
  invalid_request_object: { status: 400, family: 'oauth' },
  // RFC 9101 §7: a request_uri (here only ever a pushed request's, RFC 9126) that is not usable.
  invalid_request_uri: { status: 400, family: 'oauth' },
  // OpenID Connect Core Error Code unmet_authentication_requirements 1.0: an essential `acr` not reached.
  unmet_authentication_requirements: { status: 400, family: 'oauth' },
  // RFC 6749 §4.1.2.1, OIDC Core §3.1.2.6: only sent back by redirect (prompt=none, a declined consent).
  login_required: { status: 400, family: 'oauth' },
  consent_required: { status: 400, family: 'oauth' },
  access_denied: { status: 400, family: 'oauth' },
  // RFC 8628 §3.5: the device grant's answers while the person has not finished, or too late.
  authorization_pending: { status: 400, family: 'oauth' },
  slow_down: { status: 400, family: 'oauth' },
  expired_token: { status: 400, family: 'oauth' },
  invalid_redirect_uri: { status: 400, family: 'oauth' },
  invalid_client_metadata: { status: 400, family: 'oauth' },
  rate_limited: { status: 429, family: 'oauth' },
  unauthorized: { status: 401, family: 'api' },
  forbidden: { status: 403, family: 'api' },
  // RFC 6750 §3.1: the token is good but lacks the scope the route needs.
  insufficient_scope: { status: 403, family: 'api' },
  not_found: { status: 404, family: 'api' },
  invalid_query: { status: 400, family: 'api' },
  invalid_body: { status: 400, family: 'api' },
  conflict: { status: 409, family: 'api' },
  // RFC 7644 §3.14: a SCIM request's If-Match names a version the resource no longer has.
  precondition_failed: { status: 412, family: 'api' },
  server_error: { status: 500, family: 'api' },
  // A federated provider failed or answered what is not accepted: only ever a hosted page's status.
  bad_gateway: { status: 502, family: 'api' },
  // The database is away (DESIGN §11): OAuth endpoints say temporarily_unavailable, the API unavailable.
  temporarily_unavailable: { status: 503, family: 'oauth' },
  unavailable: { status: 503, family: 'api' },
} as const satisfies Record<string, { status: number; family: 'oauth' | 'api' }>;

export { isDatabaseUnavailable } from '../storage/unavailable.js';
export { ERROR_CODES, type ErrorSituation } from './error-codes.js';

export type ErrorCode = keyof typeof REGISTRY;

/** Whether `value` is a listed situation's code (a code carried through a value the type system does not see). */
export const isErrorSituation = (value: unknown): value is ErrorSituation =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The protocol error a situation answers with; typed so a situation listed with an unknown error fails to compile. */
const protocolErrorOf = (situation: ErrorSituation): ErrorCode => ERROR_CODES[situation].error;

/**
 * A failure the caller can act on. `detail` is safe to show: it never holds a secret. `situation` is
 * its stable code (domain/error-codes.ts), `code` the protocol error the body says.
 */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly situation: ErrorSituation;
  readonly detail: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Overrides the code's body family (see failApi). */
  readonly #family: 'oauth' | 'api' | undefined;

  constructor(
    situation: ErrorSituation,
    detail?: string,
    headers: Record<string, string> = {},
    family?: 'oauth' | 'api',
    code: ErrorCode = protocolErrorOf(situation),
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'ServiceError';
    this.code = code;
    this.situation = situation;
    this.detail = detail;
    this.headers = headers;
    this.#family = family;
  }

  /** The same situation in another route's words (the management API's `invalid_request` for `invalid_body`). */
  answeredAs(code: ErrorCode, family?: 'oauth' | 'api'): ServiceError {
    return new ServiceError(this.situation, this.detail, { ...this.headers }, family ?? this.#family, code);
  }

  get status(): number {
    return REGISTRY[this.code].status;
  }

  /** The response body, in the family the code belongs to. */
  body(): Record<string, string> {
    const family = this.#family ?? REGISTRY[this.code].family;
    if (this.detail === undefined) return { error: this.code };
    return family === 'oauth'
      ? { error: this.code, error_description: this.detail }
      : { error: this.code, error_detail: this.detail };
  }
}

/**
 * `rate_limited`, with how long until a request is accepted again; the transport says so
 * (Retry-After). The body is OAuth's unless `family` says otherwise (the management API's).
 */
export class RateLimitedError extends ServiceError {
  readonly retryAfterSeconds: number;

  constructor(
    situation: ErrorSituation,
    retryAfterSeconds: number,
    detail?: string,
    family?: 'oauth' | 'api',
  ) {
    super(situation, detail, {}, family);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const fail = (situation: ErrorSituation, detail?: string, headers?: Record<string, string>): never => {
  throw new ServiceError(situation, detail, headers);
};

/**
 * A management-API error: always `{error, error_detail}`, also for a code the OAuth endpoints
 * share (the spec's webhook `invalid_request`).
 */
export const failApi = (situation: ErrorSituation, detail?: string): never => {
  throw new ServiceError(situation, detail, {}, 'api');
};

/**
 * Why a value a person typed was refused: the rule's situation, by which a page says it in the
 * person's language, and the rule's own words (English) for where no page does.
 */
export interface InputProblem {
  readonly situation: ErrorSituation;
  readonly detail: string;
}

/** The refusal of a person's values as an InputProblem; anything else (a 5xx) is thrown on. */
export function inputProblemOf(error: unknown): InputProblem {
  if (error instanceof ServiceError && error.status < 500)
    return { situation: error.situation, detail: error.detail ?? 'the form is not valid' };
  throw error;
}
