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

/** The form of a request to the token, revocation or introspection endpoint. */
export function clientForm(request: FastifyRequest): FormParams {
  if (!isForm(request.body)) {
    return fail('oauth.form.not_urlencoded', 'the body must be application/x-www-form-urlencoded');
  }
  return request.body;
}

/**
 * The parameters of an OAuth request that the endpoint understands (RFC 6749 §3.2): others are
 * ignored, an empty value counts as absent, and any parameter given more than once is refused
 * ("parameters MUST NOT be included more than once").
 */
export function oauthParams<K extends string>(
  form: FormParams,
  understood: readonly K[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [name, values] of form) {
    if (values.length > 1) fail('oauth.parameter.repeated', `parameter given more than once: ${name}`);
    if ((understood as readonly string[]).includes(name) && values[0] !== '') out[name as K] = values[0];
  }
  return out;
}
