import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { FormParams } from '../form.js';
import { FORM } from '../openapi/oauth-responses.js';
import { type PageContext, pageLink } from './context.js';

/**
 * A relying party's page may POST a request to the authorization or logout endpoint (OIDC Core
 * §3.1.2.1, RP-Initiated Logout §2), and a browser does not send a SameSite=Lax cookie with a
 * cross-site POST: answered in place, the login cookie would be missing, so a signed-in person would
 * be asked to sign in again (`prompt=none`: `login_required`) and a sign-out would end nothing. Such a
 * POST is answered with a 303 to the same request as a GET on this host instead: a top-level
 * navigation, which carries the cookie, and exactly what the relying party could have sent. The
 * POST itself changes nothing.
 */

/**
 * What the documentation of such an endpoint says for `method`: its parameters in the query (GET,
 * operation `name`) or in a form (POST, operation `{name}Form`); a browser's page, so no credentials.
 */
export const getOrPostOperation = (
  method: 'get' | 'post',
  path: string,
  name: string,
  parameters: z.ZodType,
) =>
  ({
    method,
    path,
    operationId: method === 'get' ? name : `${name}Form`,
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    ...(method === 'get' ? { query: parameters } : { body: { contentType: FORM, schema: parameters } }),
  }) as const;

/**
 * The longest URL a POST is turned into: what proxies take in a request line by default (nginx's
 * 8 KB buffers), well under Node's 16 KB for all headers. A longer form is answered where it arrives.
 */
export const LONGEST_EQUIVALENT_GET = 8000;

/**
 * The GET of `path` on this host equivalent to a POST's `form`: the parameters the endpoint reads
 * (`names`), with every value given (so a repeated one is judged as in a query), or null when it
 * would be too long for a URL. Other fields are left out: the endpoint ignores them.
 */
export function equivalentGet(
  ctx: PageContext,
  request: FastifyRequest,
  path: string,
  names: readonly string[],
  form: FormParams,
): string | null {
  const query = new URLSearchParams();
  for (const name of names) for (const value of form.get(name) ?? []) query.append(name, value);
  const link = pageLink(ctx, request, path, query);
  return link.length > LONGEST_EQUIVALENT_GET ? null : link;
}
