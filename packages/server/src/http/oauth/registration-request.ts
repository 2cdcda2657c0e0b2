import { z } from 'zod';
import {
  MAX_REDIRECT_URI_LENGTH,
  MAX_REDIRECT_URIS,
  type RegistrationMetadata,
  redirectUriProblem,
} from '../../domain/directory/index.js';
import { fail } from '../../domain/errors.js';

const RedirectUri = z
  .string({ error: 'must be a string' })
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.rule });
  })
  .meta({
    format: 'uri',
    maxLength: MAX_REDIRECT_URI_LENGTH,
    description: 'https, or http on localhost, 127.0.0.1 or [::1]; no fragment',
  });

const NAME_RULE = 'must be a string of 1-200 characters';

/**
 * The body of POST /oauth/register (RFC 7591 §2), as the endpoint checks it and the OpenAPI
 * document shows it. Metadata the service does not use is ignored (§2), so the object is loose.
 * Each message follows the name of what it is about: `redirect_uris[1] must be a string`.
 */
export const RegistrationRequest = z.looseObject({
  redirect_uris: z
    .array(RedirectUri, { error: 'must be a non-empty array' })
    .min(1, 'must be a non-empty array')
    .max(MAX_REDIRECT_URIS, `must hold at most ${MAX_REDIRECT_URIS} URIs`),
  post_logout_redirect_uris: z
    .array(RedirectUri, { error: 'must be an array' })
    .max(MAX_REDIRECT_URIS, `must hold at most ${MAX_REDIRECT_URIS} URIs`)
    .optional()
    .meta({ description: 'where RP-Initiated Logout may return to (OIDC RP-Initiated Logout 1.0 §3.1)' }),
  application_type: z
    .enum(['web', 'native'], { error: 'must be web or native' })
    .optional()
    .meta({ description: 'OIDC Dynamic Client Registration §2; echoed in the answer' }),
  userinfo_signed_response_alg: z.literal('RS256', { error: 'must be RS256' }).optional().meta({
    description:
      'OIDC Dynamic Client Registration §2: userinfo answers a JWT signed with the issuer’s key; echoed in the answer',
  }),
  token_endpoint_auth_method: z
    .literal('none', { error: 'must be none' })
    .optional()
    .meta({ description: 'public clients only' }),
  client_name: z
    .string({ error: NAME_RULE })
    .refine((name) => name.trim() !== '' && name.length <= 200, NAME_RULE)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are refused
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters')
    .optional()
    .meta({ description: 'shown on the consent screen; default `Registered client`' }),
});

/**
 * The spec's registration error for a problem with `field` (a top-level name, or none for the
 * body as a whole): anything wrong with `redirect_uris` is `invalid_redirect_uri`, anything else
 * `invalid_client_metadata`.
 */
export const registrationErrorCode = (field: unknown) =>
  field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';

/** The checked metadata of a registration request, or the spec's error (registrationErrorCode). */
export function registrationMetadata(body: unknown): RegistrationMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('registration.body.not_object', 'the body must be a JSON object');
  }
  const result = RegistrationRequest.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('');
    const situation =
      issue.path[0] === 'redirect_uris'
        ? 'registration.redirect_uris.invalid'
        : 'registration.metadata.invalid';
    return fail(situation, `${where} ${issue.message}`);
  }
  return {
    redirectUris: result.data.redirect_uris,
    name: result.data.client_name,
    postLogoutRedirectUris: result.data.post_logout_redirect_uris,
    applicationType: result.data.application_type,
    userinfoSignedResponseAlg: result.data.userinfo_signed_response_alg,
  };
}
