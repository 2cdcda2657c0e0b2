import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type ErrorSituation, fail, isErrorSituation, ServiceError } from '../../domain/errors.js';

/** A zod issue as an `error_detail` naming the field or parameter: `events[2]: must be …`. */
function describe(issue: z.core.$ZodIssue, noun: 'field' | 'parameter'): string {
  if (issue.code === 'unrecognized_keys') return `unknown ${noun}: ${issue.keys.join(', ')}`;
  const path = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/** A refused field's situation: the domain rule's own when a rule refused it (checkedBy), else the generic one. */
function situationOf(issue: z.core.$ZodIssue): ErrorSituation {
  const named = issue.code === 'custom' ? issue.params?.situation : undefined;
  return isErrorSituation(named) ? named : 'body.field.invalid';
}

/**
 * A JSON object body checked against `schema`; any failure is 400 `code` with an `error_detail`
 * naming the field: `invalid_request` on the management API (spec "Errors"), `invalid_body` on
 * the user APIs.
 */
export function jsonBody<S extends z.ZodType>(
  code: 'invalid_request' | 'invalid_body',
  schema: S,
  body: unknown,
): z.output<S> {
  // A form body arrives as a Map (http/form.ts): not JSON either.
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body instanceof Map) {
    throw new ServiceError('body.not_object', 'the body must be a JSON object', {}, 'api', code);
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    throw new ServiceError(situationOf(issue), describe(issue, 'field'), {}, 'api', code);
  }
  return result.data;
}

/**
 * The query string exactly as sent (fastify's parser folds repeats into arrays), checked against
 * `schema`: a repeated, unknown or invalid parameter is 400 `invalid_query` naming it.
 * `transport` names parameters that are not the operation's own (the loopback `host` override):
 * they must not repeat either, and are left out of what the schema sees.
 */
export function strictQuery<S extends z.ZodType>(
  schema: S,
  request: FastifyRequest,
  transport: readonly string[] = [],
): { query: z.output<S>; given: Map<string, string> } {
  const raw = request.raw.url ?? '';
  const at = raw.indexOf('?');
  const given = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(at === -1 ? '' : raw.slice(at + 1))) {
    if (given.has(name)) fail('query.parameter.repeated', `repeated parameter: ${name}`);
    given.set(name, value);
  }
  const own = Object.fromEntries([...given].filter(([name]) => !transport.includes(name)));
  const result = schema.safeParse(own);
  if (!result.success)
    fail('query.parameter.invalid', describe(result.error.issues[0] as never, 'parameter'));
  return { query: result.data as z.output<S>, given };
}

/**
 * A rule the domain enforces beyond the body's own schema (a client's grant types against the
 * redirect URIs it ends up with, `domains` without a domain) is refused as the management API
 * refuses any bad value: 400 `invalid_request`.
 */
export async function managementInput<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'invalid_body')
      throw err.answeredAs('invalid_request', 'api');
    throw err;
  }
}

/** Which field of a body becomes which field of the domain's input. */
type Renames<B> = { readonly [K in keyof B]?: string };

/** The fields `renames` names, under their new names, each optional and never undefined. */
type Sent<B, M extends Renames<B>> = {
  [K in keyof M & keyof B as M[K] extends string ? M[K] : never]?: Exclude<B[K], undefined>;
};

/**
 * The fields of a body that were sent, under the domain's names: `sentFields(body, { first_name:
 * 'firstName' })`. A field not sent stays out (an update leaves it as it is); a null sent is kept
 * (it clears).
 */
export function sentFields<B extends object, const M extends Renames<B>>(body: B, renames: M): Sent<B, M> {
  const sent: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(renames) as [keyof B, string][]) {
    const value = body[from];
    if (value !== undefined) sent[to] = value;
  }
  return sent as Sent<B, M>;
}
