import { AUTHORIZE_PARAMETERS, type AuthorizeParams, type AuthorizeQuery } from '../domain/sign-in/index.js';
import type { FormParams } from './form.js';

/**
 * An authorization request's known parameters, and the names given more than once (RFC 6749 §3.1:
 * such a request is invalid), as /oauth/authorize reads its query or form and /oauth/par its body.
 * Unknown parameters are ignored, as §3.1 requires; empty ones are absent.
 */
export function authorizeQuery(given: FormParams): AuthorizeQuery {
  const params: AuthorizeParams = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAMETERS) {
    const values = given.get(name) ?? [];
    // RFC 8707 §2: `resource` may be given several times, once per resource.
    if (values.length > 1 && name !== 'resource') repeated.push(name);
    else if (values[0]) params[name] = values[0];
  }
  return { params, repeated, resources: (given.get('resource') ?? []).filter((v) => v !== '') };
}
