import type { z } from 'zod';
import { fail } from '../domain/errors.js';

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field: ${issue.keys.join(', ')}`;
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/** A JSON object body checked against `schema`; any failure is `invalid_body` naming the field. */
export function jsonBody<T>(schema: z.ZodType<T>, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || body instanceof Map) {
    return fail('invalid_body', 'the body must be a JSON object');
  }
  const result = schema.safeParse(body);
  if (!result.success) return fail('invalid_body', describe(result.error.issues[0] as z.core.$ZodIssue));
  return result.data;
}
