import type { FastifyRequest } from 'fastify';
import { fail } from '../domain/errors.js';

/** A parsed `application/x-www-form-urlencoded` body: every value a name was given, in order. */
export type FormParams = Map<string, string[]>;

export function parseForm(body: string): FormParams {
  const params: FormParams = new Map();
  for (const [name, value] of new URLSearchParams(body)) {
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

export function isForm(body: unknown): body is FormParams {
  return body instanceof Map;
}

/**
 * The form of a request to the token or revocation endpoint. Clients authenticate with
 * client_secret_post only, so credentials in an `Authorization` header are refused, not ignored.
 */
export function clientForm(request: FastifyRequest): FormParams {
  if (!isForm(request.body)) {
    return fail('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  if (request.headers.authorization !== undefined) {
    fail('invalid_request', 'send client credentials in the request body (client_secret_post)');
  }
  return request.body;
}

/**
 * The parameters of an OAuth request, refusing repeated and unknown ones (RFC 6749 §3.2:
 * "parameters MUST NOT be included more than once"). Empty values count as absent.
 */
export function oauthParams<K extends string>(
  form: FormParams,
  allowed: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [name, values] of form) {
    if (!(allowed as readonly string[]).includes(name)) fail('invalid_request', `unknown parameter: ${name}`);
    if (values.length > 1) fail('invalid_request', `parameter given more than once: ${name}`);
    if (values[0] !== '') out[name as K] = values[0];
  }
  return out;
}
