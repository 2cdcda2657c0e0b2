import { SdkError, safeCause } from './errors.js';

/**
 * Where requests go: `${api}${path}`, plus `?host=` when a development host override is set.
 *
 * @example
 * ```ts
 * const target: Target = { api: 'http://localhost:4000', hostOverride: 'acme.localhost:4000' };
 * ```
 */
export interface Target {
  /** The API base address without a trailing slash. */
  readonly api: string;
  readonly hostOverride: string | undefined;
}

/**
 * One request, described before it is sent. `secrets` lists every value the caller handed over that
 * must never surface in an error; the processing step redacts them from anything the server says.
 *
 * @example
 * ```ts
 * const call: Call = { method: 'GET', path: '/users/me', bearer: token, secrets: [token] };
 * ```
 */
export interface Call {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Already percent-encoded path, starting with `/`. */
  readonly path: string;
  readonly bearer?: string;
  /** The scheme `bearer` is sent under: `Bearer` (default), or `DPoP` for a DPoP-bound token. */
  readonly scheme?: 'Bearer' | 'DPoP';
  /** A DPoP proof (RFC 9449), sent as the `DPoP` header. */
  readonly proof?: string;
  /** An `application/x-www-form-urlencoded` body; `undefined` values are left out. */
  readonly form?: Readonly<Record<string, string | undefined>>;
  /** A JSON body. */
  readonly json?: unknown;
  readonly secrets: readonly string[];
}

/** Long enough for a slow sign-in backend, short enough that a dead server does not hang a page. */
const TIMEOUT_MS = 30_000;

/**
 * The absolute URL of `path` on the target, with the `host` override when one is configured.
 *
 * @example
 * ```ts
 * urlOf({ api: 'http://localhost:4000', hostOverride: 'acme.localhost:4000' }, '/tenants');
 * // 'http://localhost:4000/tenants?host=acme.localhost%3A4000'
 * ```
 */
export function urlOf(target: Target, path: string): string {
  const url = new URL(`${target.api}${path}`);
  if (target.hostOverride !== undefined) url.searchParams.set('host', target.hostOverride);
  return url.href;
}

function bodyOf(call: Call): { body?: string; type?: string } {
  if (call.form !== undefined) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(call.form)) if (value !== undefined) form.set(name, value);
    return { body: form.toString(), type: 'application/x-www-form-urlencoded' };
  }
  if (call.json !== undefined) return { body: JSON.stringify(call.json), type: 'application/json' };
  return {};
}

/**
 * The request step: sends `call` and returns the raw `Response`, whatever its status. Only a failure to
 * get an answer at all throws — an {@link SdkError} with status 0 and code `network_error`.
 *
 * @example
 * ```ts
 * const response = await send(target, { method: 'GET', path: '/tenants', bearer: token, secrets: [token] });
 * ```
 */
export async function send(target: Target, call: Call): Promise<Response> {
  const { body, type } = bodyOf(call);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (type !== undefined) headers['content-type'] = type;
  if (call.bearer !== undefined) headers.authorization = `${call.scheme ?? 'Bearer'} ${call.bearer}`;
  if (call.proof !== undefined) headers.dpop = call.proof;
  try {
    return await fetch(urlOf(target, call.path), {
      method: call.method,
      headers,
      ...(body === undefined ? {} : { body }),
      // A followed redirect would replay a secret-bearing body or header to another address.
      redirect: 'manual',
      // Bearer tokens are the only credential; cookies of the API's origin must not ride along.
      credentials: 'omit',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (failure) {
    const timedOut = failure instanceof Error && failure.name === 'TimeoutError';
    const detail = timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : 'the connection failed';
    throw new SdkError(
      `Tessera could not be reached for ${call.method} ${call.path}: ${detail}`,
      { status: 0, code: 'network_error', detail },
      { cause: safeCause(failure) },
    );
  }
}
