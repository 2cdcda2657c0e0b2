import { z } from 'zod';
import { CODE_CHALLENGE, PKCE_METHODS } from '../../domain/sign-in/index.js';

/**
 * POST /organizations/{org}/users/{id}/impersonation: the body the route validates with and the
 * response it sends, declared once; the OpenAPI document is generated from the same objects.
 */

export const StartImpersonationBody = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1, 'is required: say why you act as this user')
      .max(500, 'must be at most 500 characters')
      .meta({ description: 'why the owner acts as the user; recorded in the audit log' }),
    client_id: z.string().min(1, 'is required').max(128).meta({ description: 'the client to sign in to' }),
    redirect_uri: z
      .string()
      .min(1, 'is required')
      .max(2048)
      .meta({ description: 'one of the client’s registered redirect URIs; the code is sent there' }),
    state: z
      .string()
      .max(2048)
      .optional()
      .meta({ description: 'echoed on the redirect, as for /oauth/authorize' }),
    code_challenge: z
      .string()
      .regex(CODE_CHALLENGE, 'must be 43 to 128 characters of A-Z a-z 0-9 . _ ~ -')
      .optional()
      .meta({ description: 'PKCE (RFC 7636) challenge; required when the client is public' }),
    code_challenge_method: z
      .literal(PKCE_METHODS[0], 'must be S256')
      .optional()
      .meta({ description: 'S256, the only method (required with code_challenge)' }),
  })
  .superRefine((body, issues) => {
    if ((body.code_challenge === undefined) !== (body.code_challenge_method === undefined)) {
      const field = body.code_challenge === undefined ? 'code_challenge' : 'code_challenge_method';
      issues.addIssue({
        code: 'custom',
        path: [field],
        message: 'code_challenge and code_challenge_method go together',
      });
    }
  });

export const Impersonation = z.object({
  id: z.string().meta({ pattern: '^imp_' }),
  user_id: z.string().meta({ pattern: '^usr_' }),
  client_id: z.string(),
  url: z.string().meta({
    format: 'uri',
    description: 'one-time link on the org’s issuer; opening it signs the browser in as the user',
  }),
  expires_at: z.string().meta({ format: 'date-time', description: 'the link opens once, before this' }),
});
