import { type ErrorSituation, fail } from '../../errors.js';
import type { AuthorizationRequest, ResponseMode } from '../../types.js';

/**
 * `response_mode` (OAuth 2.0 Multiple Response Type Encoding Practices §2.1, Form Post Response
 * Mode): `query` (the default for `code`), `fragment`, or `form_post` — a page that POSTs the answer
 * to the redirect URI, so the code is in no address bar, history or Referer. Errors sent back to the
 * client travel the same way as a code would.
 */
export const RESPONSE_MODES: readonly ResponseMode[] = ['query', 'fragment', 'form_post'];

export function parseResponseMode(value: string | undefined): ResponseMode {
  if (value === undefined) return 'query';
  const mode = RESPONSE_MODES.find((m) => m === value);
  return mode ?? fail('authorize.response_mode.unsupported', `response_mode ${value} is not supported`);
}

export type AuthorizationResult =
  | { code: string }
  | { error: string; description: string; situation: ErrorSituation };

/** Where the answer goes: the redirect URI, the `state` to echo and the mode. */
export interface AnswerTarget {
  redirectUri: string;
  state: string | null;
  responseMode: ResponseMode;
}

/** Where the answer to a saved request goes. */
export const answerTargetOf = (request: AuthorizationRequest): AnswerTarget => ({
  redirectUri: request.redirectUri,
  state: request.state,
  responseMode: request.responseMode,
});

/**
 * Where the answer to a saved request is sent (the hosted pages' CSP lets their forms lead there,
 * and the consent page names its host).
 */
export const answerDestination = (pending: { request: AuthorizationRequest }): string =>
  pending.request.redirectUri;

/** The answer to the client: a URL to redirect to, or the fields a form posts to the redirect URI. */
export type AuthorizationAnswer = (
  | { redirect: string }
  | { formPost: { action: string; fields: ReadonlyArray<readonly [string, string]> } }
) & { situation?: ErrorSituation };

/**
 * The answer to an authorization request (RFC 6749 §4.1.2 / §4.1.2.1): the code or the error,
 * `state` echoed and `iss` (RFC 9207), so the client can tell which server answered — in the
 * query, in the fragment, or as a form post.
 */
export function authorizationAnswer(
  issuer: string,
  target: AnswerTarget,
  result: AuthorizationResult,
): AuthorizationAnswer {
  const fields: [string, string][] =
    'code' in result
      ? [['code', result.code]]
      : [
          ['error', result.error],
          ['error_description', result.description],
        ];
  if (target.state !== null) fields.push(['state', target.state]);
  fields.push(['iss', issuer]);
  // An error's situation rides beside the answer, for the transport's header; it is not a field.
  const named = 'code' in result ? {} : { situation: result.situation };
  if (target.responseMode === 'form_post')
    return { formPost: { action: target.redirectUri, fields }, ...named };
  const url = new URL(target.redirectUri);
  if (target.responseMode === 'fragment') url.hash = new URLSearchParams(fields).toString();
  else for (const [name, value] of fields) url.searchParams.append(name, value);
  return { redirect: url.href, ...named };
}

/** The mode errors of a request travel in: the one it asked for when it is valid, else `query`. */
export function errorResponseMode(value: string | undefined): ResponseMode {
  return RESPONSE_MODES.find((m) => m === value) ?? 'query';
}
