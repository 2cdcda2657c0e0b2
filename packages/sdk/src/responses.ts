import { redact, SdkError } from './errors.js';
import type { Call } from './http.js';

/** Bodies beyond this are not read: no Tessera answer comes close, and a runaway one must not exhaust memory. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A record parser: the typed record, or `null` when `json` is not one. */
export type Parse<T> = (json: unknown) => T | null;

async function readText(response: Response): Promise<string | null> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      total += value.byteLength;
      if (total > MAX_BODY_BYTES) {
        await reader.cancel();
        return null;
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return null;
  }
}

function parseJson(text: string | null): unknown {
  if (text === null || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stringField(json: unknown, name: string): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const value = (json as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The error for a non-2xx answer. A JSON body gives `code` (its `error`) and `detail` (its
 * `error_detail`, else the OAuth `error_description`); any other body gives `http_error` and no detail.
 *
 * @example
 * ```ts
 * throw failure(call, response, '{"error":"not_found","error_detail":"no such tenant"}');
 * ```
 */
export function failure(call: Call, response: Response, text: string | null): SdkError {
  const status = response.status;
  const json = parseJson(text);
  const serverCode = stringField(json, 'error');
  const safeCode = serverCode === undefined ? undefined : redact(serverCode, call.secrets);
  // A code that echoed something the caller sent is no longer a code; fall back to the generic one.
  const code = safeCode !== undefined && safeCode === serverCode ? safeCode : 'http_error';
  const serverDetail = stringField(json, 'error_detail') ?? stringField(json, 'error_description');
  const redirected = response.type === 'opaqueredirect' || (status >= 300 && status < 400);
  const detail =
    serverDetail !== undefined
      ? redact(serverDetail, call.secrets)
      : redirected
        ? 'the server redirected, and the SDK does not follow redirects'
        : undefined;
  const head = `Tessera answered ${status} ${code} to ${call.method} ${call.path}`;
  const situation = situationOf(call, response);
  return new SdkError(detail === undefined ? head : `${head}: ${detail}`, {
    status,
    code,
    detail,
    situation,
  });
}

/** The shape of a situation code: `area.subject.problem`, lowercase (the server's docs/errors.md). */
const SITUATION = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*){1,3}$/;

/**
 * The answer's `Tessera-Error-Code`, when it is one: anything else (a proxy's header, text that
 * echoes something the caller sent) is dropped, as a code that echoes input is.
 */
function situationOf(call: Call, response: Response): string | undefined {
  const value = response.headers.get('tessera-error-code');
  if (value === null || value.length > 100 || !SITUATION.test(value)) return undefined;
  return redact(value, call.secrets) === value ? value : undefined;
}

/**
 * The processing step of calls that return a record: a non-2xx answer throws {@link failure}; a 2xx
 * answer is parsed, and a body that is not the record throws `invalid_response`.
 *
 * @example
 * ```ts
 * const user = await expectJson(call, await send(target, call), parseUser, 'a user');
 * ```
 */
export async function expectJson<T>(
  call: Call,
  response: Response,
  parse: Parse<T>,
  what: string,
): Promise<T> {
  const text = await readText(response);
  if (!response.ok) throw failure(call, response, text);
  const record = parse(parseJson(text));
  if (record === null) {
    throw new SdkError(
      `Tessera answered ${response.status} to ${call.method} ${call.path} with a body that is not ${what}`,
      { status: response.status, code: 'invalid_response', detail: `the body is not ${what}` },
    );
  }
  return record;
}

/**
 * The processing step of calls that return nothing: any 2xx resolves to `undefined`, whatever its body.
 *
 * @example
 * ```ts
 * await expectSuccess(call, await send(target, call));
 * ```
 */
export async function expectSuccess(call: Call, response: Response): Promise<undefined> {
  const text = await readText(response);
  if (!response.ok) throw failure(call, response, text);
  return undefined;
}
