import type { z } from 'zod';
import { isoTime } from '../../domain/iso-time.js';
import { startImpersonation as start } from '../../domain/sign-in/index.js';
import { created, endpoint } from './endpoint.js';
import { Impersonation, StartImpersonationBody } from './impersonation-schemas.js';
import { apiError, jsonRequest, MANAGEMENT } from './responses.js';

/**
 * An owner starts acting as a user of their org (people only; members 403, strangers 404, as for
 * webhooks): the answer is a one-time link on the org's issuer, shown in this response only
 * (docs/delegation.md).
 */
export const startImpersonation = endpoint(
  {
    ...MANAGEMENT,
    people: true,
    scope: 'users:impersonate',
    who: 'owners',
    method: 'post',
    path: '/organizations/:org/users/:id/impersonation',
    operationId: 'startImpersonation',
    summary: 'Act as a user of the org: a one-time sign-in link for one client',
    description:
      'Owners only. The `url` opens once, within two minutes, on the org’s issuer: it signs the ' +
      'browser in as the user and redirects to `redirect_uri` with a code (and `state`, `iss`), ' +
      'which the client exchanges at /oauth/token as usual (with its PKCE verifier). Tokens carry ' +
      '`act: {sub: <owner usr_ id>}`; the session ends one hour after the link is opened and no ' +
      'refresh extends it. Audited as `impersonation.created`, then `user.login` and ' +
      '`session.created`, each with the owner as actor.',
    params: { org: 'the org id (`org_…`) or slug', id: 'the user id (`usr_…`)' },
    body: jsonRequest(StartImpersonationBody),
    responses: {
      201: { description: 'the link, shown in this response only', schema: Impersonation },
      400: apiError(
        '`invalid_request`: an unknown field, a value failing validation, a client or redirect URI ' +
          'not of this org, or no `code_challenge` for a public client',
      ),
      401: apiError('no valid console token (`WWW-Authenticate: Bearer`)'),
      403: apiError('`forbidden`: the caller is a member but not an owner of the org'),
      404: apiError('`not_found`: no such org, or the token cannot manage it; or no such user in it'),
      409: apiError('`conflict`: the user is disabled'),
    },
  },
  async ({ deps, caller, params, body }) => {
    const started = await start(deps, caller.org, caller.consoleUserId, params.id, {
      reason: body.reason,
      clientId: body.client_id,
      redirectUri: body.redirect_uri,
      state: body.state,
      codeChallenge: body.code_challenge,
      codeChallengeMethod: body.code_challenge_method,
    });
    const view: z.output<typeof Impersonation> = {
      id: started.id,
      user_id: started.userId,
      client_id: started.clientId,
      url: started.url,
      expires_at: isoTime(started.expiresAt),
    };
    return created(view);
  },
);
