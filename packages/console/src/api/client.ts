import { accessToken, refresh, signIn } from '../auth/session.js';
import { parseLink } from './link.js';

/** What the management API answered when it refused: its `error` code and `error_detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string | null,
  ) {
    super(detail ?? code);
  }
}

export interface Answer<T> {
  data: T;
  status: number;
  /** The `Link` header's relations (paged lists), each a path on this origin. */
  links: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

const expired = (response: Response) =>
  response.status === 401 &&
  /error="invalid_token"|error="unauthorized"|^Bearer realm/.test(
    response.headers.get('www-authenticate') ?? 'Bearer realm',
  );

/** One relative or same-origin URL of the API as a path (a `Link` relation is absolute). */
function pathOf(url: string): string {
  const parsed = new URL(url, location.origin);
  if (parsed.origin !== location.origin) throw new Error('the API lives on this origin only');
  return `${parsed.pathname}${parsed.search}`;
}

async function send(method: Method, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = accessToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(pathOf(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * One call of the management API with the console's access token. An expired token is refreshed
 * once, silently, and the call repeated; when the session itself has ended the owner goes back
 * through sign-in and returns to this page.
 */
export async function api<T>(method: Method, path: string, body?: unknown): Promise<Answer<T>> {
  if (!accessToken()) await signIn();
  let response = await send(method, path, body);
  if (expired(response)) {
    if (!(await refresh())) return signIn();
    response = await send(method, path, body);
    if (response.status === 401) return signIn();
  }
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = (json ?? {}) as { error?: string; error_detail?: string; error_description?: string };
    throw new ApiError(
      response.status,
      error.error ?? `http_${response.status}`,
      error.error_detail ?? error.error_description ?? null,
    );
  }
  return {
    data: json as T,
    status: response.status,
    links: Object.fromEntries(
      Object.entries(parseLink(response.headers.get('link'))).map(([k, v]) => [k, pathOf(v)]),
    ),
  };
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const del = (path: string) => api<null>('DELETE', path);

/** `/organizations/{org}` + rest, with each part encoded. */
export const orgPath = (org: string, ...rest: string[]) =>
  `/organizations/${encodeURIComponent(org)}${rest.map((p) => `/${encodeURIComponent(p)}`).join('')}`;
